import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

// Standard Webhooks 1.0 signatures (issue 21; https://www.standardwebhooks.com/), through the
// specification's own library: `webhook-signature` is `v1,<base64 HMAC-SHA256 of
// "<webhook-id>.<webhook-timestamp>.<body>">`. For 24 hours after a rotation the previous secret
// signs too, the two signatures separated by a space, so a receiver switches secrets without a gap.

/** `whsec_` and 24 random bytes in base64: the secret format the library and receivers expect. */
export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export interface SigningSecrets {
  secret: string;
  previousSecret: string | null;
  /** Unix ms. */
  previousSecretUntil: number | null;
}

/** The three headers of one request: its id, its time (unix seconds) and its signatures. */
export function signatureHeaders(
  secrets: SigningSecrets,
  messageId: string,
  at: number,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = new Date(Math.floor(at / 1000) * 1000);
  const keys = [secrets.secret];
  if (secrets.previousSecret && (secrets.previousSecretUntil ?? 0) > at) keys.push(secrets.previousSecret);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp.getTime() / 1000),
    'webhook-signature': keys.map((key) => new Webhook(key).sign(messageId, timestamp, body)).join(' '),
  };
}
