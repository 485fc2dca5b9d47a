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
 * Names whose values never reach the log (compared without case), at the first three levels of a logged object:
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

const SECRETS = new Set(SECRET_NAMES.map((name) => name.toLowerCase()));
const REDACTED = '[redacted]';
/** How deep a logged object is searched for secret names. */
const REDACT_DEPTH = 3;

/**
 * `value` with every property named as a secret replaced, to REDACT_DEPTH levels; the logged
 * object itself is never changed. Ours rather than pino's `redact`: its wildcard paths cost
 * 30 µs a level on every line (decision 148), this about half a microsecond on a request's line.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth >= REDACT_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  if (Buffer.isBuffer(value)) return value;
  let copy: Record<string, unknown> | undefined;
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    const inner = source[key];
    const replaced = SECRETS.has(key.toLowerCase()) ? REDACTED : redactSecrets(inner, depth + 1);
    if (replaced !== inner) {
      copy ??= value instanceof Error ? errorFields(value) : { ...source };
      copy[key] = replaced;
    }
  }
  return copy ?? value;
}

/** A copy of an error that can be changed: still an error of its kind, so pino writes its type and stack. */
const errorFields = (error: Error): Record<string, unknown> =>
  Object.assign(Object.create(Object.getPrototypeOf(error)) as Error, error, {
    message: error.message,
    stack: error.stack,
  }) as unknown as Record<string, unknown>;

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
    formatters: { log: (object: Record<string, unknown>) => redactSecrets(object) as Record<string, unknown> },
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
  // Buffered: one write per 12 KB (about eighty request lines) rather than one per request; pino
  // flushes it on exit, and a quiet server's lines go out within a second. 12 KB rather than 4 KB
  // saved 1.3 µs of each request's 16 µs of observing (CPU profile, decision 148); sonic-boom
  // refuses a minLength of its maxWrite (16 KB) or more.
  const log = pino(options, pino.destination({ dest: 1, minLength: LOG_BUFFER_BYTES, sync: false }));
  setInterval(() => log.flush(), 1_000).unref();
  return log;
}

/** Bytes of log lines gathered before one write (below sonic-boom's 16 KB maxWrite). */
export const LOG_BUFFER_BYTES = 12_288;

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
