// Messages to people leave the system through these two ports. Services depend on the
// interfaces only; server/services/messaging/create.ts picks the adapter from the configuration
// (the database outbox by default, SMTP when SMTP_URL is set).

export interface EmailMessage {
  /** One plain address (`name@example.com`), never a list: a comma must not add recipients. */
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SmsMessage {
  /** E.164 number, e.g. `+4915112345678`. */
  to: string;
  text: string;
}

export interface Mailer {
  /** Resolves once the message is stored (outbox) or accepted by the server (SMTP). */
  send(message: EmailMessage): Promise<void>;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

/** The part of the server's logger the adapters use; server/backend.ts's `Logger` fits. */
export interface MessagingLog {
  info(message: string): void;
}

// Checked by every adapter alike, so a bad address fails in development the same way it would
// in production. Validation of what people type belongs to the routes; these guard the last step.
// No quotes, spaces, commas or angle brackets: nodemailer would read `a@x.com, b@y.com` as two
// recipients, and `Name <a@x.com>` would let the caller pick a display name.
const plainAddress = /^[^\s@,;<>"()[\]\\]+@[^\s@,;<>"()[\]\\]+\.[^\s@,;<>"()[\]\\]+$/;
const e164 = /^\+[1-9]\d{6,14}$/;

export function assertEmailAddress(to: string): void {
  if (to.length > 254 || !plainAddress.test(to)) throw new Error(`Not a single e-mail address: ${JSON.stringify(to)}`);
}

export function assertPhoneNumber(to: string): void {
  if (!e164.test(to)) throw new Error(`Not an E.164 phone number: ${JSON.stringify(to)}`);
}
