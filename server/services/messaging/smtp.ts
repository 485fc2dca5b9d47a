import { createTransport } from 'nodemailer';
import type { DatabaseLike } from '../../../db/database.ts';
import type { EmailMessage, Mailer } from './messaging.ts';
import { createOutboxRepository, emailRow } from './outbox.ts';

// E-mail through a real SMTP server (SMTP_URL). Every message is also written to the outbox:
// first undelivered, then stamped `deliveredAt` once the server has accepted it, so operators can
// see what went out and what a server refused.

export interface SmtpMailerOptions {
  /**
   * `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…` (TLS from the start).
   * nodemailer reads further options from the query, e.g. `?greetingTimeout=500` in tests.
   * Certificates are verified: only a test may add `?tls.rejectUnauthorized=false`.
   */
  url: string;
  /** The From header, e.g. `Coinfair <no-reply@coinfair.example>`. */
  from: string;
  db: DatabaseLike;
  now: () => number;
}

/** nodemailer waits 2 min to connect and 10 min on a silent socket; a request must not. */
const TIMEOUT_MS = 10_000;

/**
 * The server refused the message or could not be reached. The message names the server
 * (`host:port`), never the credentials; the original error is not attached as `cause` because
 * nodemailer's errors can carry the AUTH exchange.
 */
export class SmtpDeliveryError extends Error {
  override readonly name = 'SmtpDeliveryError';
  /** `host:port` of the server that failed. */
  readonly server: string;
  /** nodemailer's code: `ECONNECTION`, `ETIMEDOUT`, `EAUTH`, `EENVELOPE`, `EMESSAGE`, … */
  readonly code: string | undefined;
  /** The SMTP reply code, when the server answered (e.g. 550). */
  readonly responseCode: number | undefined;
  /** True for a 5xx answer: sending the same message again will fail again. */
  readonly permanent: boolean;

  constructor(server: string, reason: string, details: { code?: string; responseCode?: number; permanent?: boolean }) {
    super(`Sending mail through SMTP server ${server} failed: ${reason}`);
    this.server = server;
    this.code = details.code;
    this.responseCode = details.responseCode;
    this.permanent = details.permanent ?? false;
  }
}

export function createSmtpMailer({ url, from, db, now }: SmtpMailerOptions): Mailer {
  const target = describeServer(url);
  const repo = createOutboxRepository(db);
  // One transport for the process; without `pool` each message opens its own connection, so
  // nothing stays open between messages and shutdown has nothing to close.
  const transport = createTransport({
    url,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
    dnsTimeout: TIMEOUT_MS,
    // Messages are plain strings we compose; refuse anything that would make nodemailer read a
    // file or fetch a URL, and never more than the one recipient we name.
    disableFileAccess: true,
    disableUrlAccess: true,
    maxRecipients: 1,
  });

  return {
    async send(message: EmailMessage) {
      const id = await repo.insert(emailRow(message, now()));
      try {
        await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html === undefined ? {} : { html: message.html }),
        });
      } catch (error) {
        throw toDeliveryError(error, target);
      }
      await repo.markDelivered(id, now());
    },
  };
}

interface ServerDescription {
  label: string;
  secrets: string[];
}

/** `host:port` for messages, and the credentials to scrub from any text we pass on. */
function describeServer(url: string): ServerDescription {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not echoing the value: it holds the password.
    throw new Error('SMTP_URL is not a valid URL (expected smtp://user:pass@host:port)');
  }
  const secure = parsed.protocol === 'smtps:';
  // nodemailer's defaults when the URL names no port.
  const port = parsed.port || (secure ? '465' : '587');
  const secrets = [parsed.username, parsed.password]
    .flatMap((raw) => [raw, safeDecode(raw)])
    // nodemailer's messages do not quote credentials; this is a second line of defence. Short
    // values are left alone: scrubbing `user` would turn "Invalid username" into "Invalid ***name",
    // and real secrets (passwords, API tokens used as user names) are longer.
    .filter((secret) => secret.length >= 8);
  return { label: `${parsed.hostname}:${port}`, secrets: [...new Set(secrets)] };
}

function toDeliveryError(error: unknown, target: ServerDescription): SmtpDeliveryError {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  let reason = error instanceof Error ? error.message : String(error);
  for (const secret of target.secrets) reason = reason.replaceAll(secret, '***');
  return new SmtpDeliveryError(target.label, reason, {
    ...(typeof fields.code === 'string' ? { code: fields.code } : {}),
    ...(typeof fields.responseCode === 'number' ? { responseCode: fields.responseCode } : {}),
    ...(typeof fields.permanent === 'boolean' ? { permanent: fields.permanent } : {}),
  });
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
