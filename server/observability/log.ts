import { AsyncLocalStorage } from 'node:async_hooks';
import { type DestinationStream, type Logger as Pino, pino } from 'pino';

// The server's one structured log (issue 25): JSON lines for the operator's collector, pretty
// lines in development. Every line written while a request is being handled carries its id,
// whoever writes it (a service, a job started by the request, a webhook queued by it), because the
// id travels in AsyncLocalStorage rather than in arguments (decision 148).

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** What the request being handled is known by, for every line and job it causes. */
export interface RequestScope {
  requestId: string;
}

export const requestScope = new AsyncLocalStorage<RequestScope>();

/** The id of the request this code runs for, if any. */
export const currentRequestId = (): string | undefined => requestScope.getStore()?.requestId;

/**
 * Names whose values never reach the log, at any of the first three levels of a logged object:
 * passwords, one-time codes, tokens and keys, gift codes, bank account numbers, cookies.
 */
const SECRET_NAMES = [
  'password',
  'currentPassword',
  'newPassword',
  'passwordHash',
  'code',
  'otp',
  'totp',
  'token',
  'accessToken',
  'refreshToken',
  'secret',
  'apiKey',
  'apiSecret',
  'privateKey',
  'giftCode',
  'cardCode',
  'iban',
  'accountNumber',
  'authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-api-signature',
];

/** The redaction paths for pino: each name at the top, one and two levels down. */
export const REDACTED_PATHS = SECRET_NAMES.flatMap((name) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : `["${name}"]`;
  const dotted = key.startsWith('[') ? key : `.${key}`;
  return [key, `*${dotted}`, `*.*${dotted}`];
});

export interface LogOptions {
  level: LogLevel;
  format: 'json' | 'pretty';
  /** Where the lines go: standard output unless a test gives its own stream. */
  destination?: DestinationStream;
}

export function createLog({ level, format, destination }: LogOptions): Pino {
  const options = {
    level,
    base: undefined,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // The request's id on every line written while it is handled.
    mixin: () => {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (destination) return pino(options, destination);
  if (format === 'pretty') {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true } } });
  }
  // Buffered: one write per 4 KB rather than one per request; pino flushes it on exit, and a
  // quiet server's lines go out within a second.
  const log = pino(options, pino.destination({ dest: 1, minLength: 4096, sync: false }));
  setInterval(() => log.flush(), 1_000).unref();
  return log;
}

/** The narrow interface the backend logs through (server/backend.ts), written to the structured log. */
export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export function loggerOf(log: Pino): Logger {
  return {
    info: (message) => log.info(message),
    error: (message, error) => (error === undefined ? log.error(message) : log.error({ err: error }, message)),
  };
}
