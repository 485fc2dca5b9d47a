import { randomBytes } from 'node:crypto';
import { newId } from '../../../db/ids.ts';
import { type VerifyFailure, WEBHOOK_VERIFY_EVENT } from '../../../src/lib/shared/webhooks.ts';
import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { webhookUrl } from './address-guard.ts';
import { ensureWebhook, merchantOf, type WebhooksDeps } from './deps.ts';
import { signatureHeaders } from './signing.ts';
import type { PostResult } from './transport.ts';

// The verification challenge (spec section 5; issue 21): the server posts a signed
// `webhook.verify` request with a random challenge (body field and `X-Webhook-Challenge` header)
// to the URL, which passes only by answering 2xx with the challenge echoed, in that header or in
// a JSON body's `challenge`. A URL that passed can be saved for the next 15 minutes without
// another round.

export const CHALLENGE_HEADER = 'x-webhook-challenge';
/** How long a passed challenge lets the URL be saved without asking again. */
export const VERIFIED_FOR_MS = 15 * 60_000;

const FAILURE_MESSAGES: Record<VerifyFailure, string> = {
  dns: 'The host name does not resolve to an address.',
  unreachable: 'Nothing answered at that address.',
  timeout: 'The address did not answer in time.',
  redirect: 'The address answered with a redirect; give the final URL (redirects are not followed).',
  status: 'The address did not answer with a 2xx status.',
  wrong_challenge: 'The answer did not echo the challenge (X-Webhook-Challenge header or JSON "challenge").',
};

const failed = (reason: VerifyFailure, status: number | null) =>
  new AppError('WEBHOOK_VERIFICATION_FAILED', FAILURE_MESSAGES[reason], {
    field: 'url',
    key: `webhook_${reason}`,
    meta: { reason, ...(status !== null ? { status } : {}) },
  });

/** The challenge as the answer carries it: the header, else a JSON body's field. */
function echoed(result: PostResult): string | undefined {
  const header = result.headers[CHALLENGE_HEADER];
  if (typeof header === 'string') return header.trim();
  try {
    const body = JSON.parse(result.body) as unknown;
    if (body && typeof body === 'object' && 'challenge' in body && typeof body.challenge === 'string')
      return body.challenge;
  } catch {
    // Not JSON: no challenge in the body.
  }
  return undefined;
}

/** Sends the challenge to `url` for the person; throws what went wrong, else records the pass. */
export async function challengeUrl(deps: WebhooksDeps, userId: number, value: string): Promise<string> {
  const { repo, guard, post, now } = deps;
  const url = webhookUrl(value);
  const row = await ensureWebhook(deps, userId);
  const target = await guard.resolve(url);
  const challenge = randomBytes(24).toString('base64url');
  const at = now();
  const body = JSON.stringify({ type: WEBHOOK_VERIFY_EVENT, timestamp: new Date(at).toISOString(), challenge });
  const headers = { ...signatureHeaders(row, newId('msg'), at, body), [CHALLENGE_HEADER]: challenge };
  const result = await post(target, body, headers);
  if (result.failure) throw failed(result.failure, null);
  const status = result.status as number;
  if (status >= 300 && status < 400) throw failed('redirect', status);
  if (status < 200 || status >= 300) throw failed('status', status);
  if (echoed(result) !== challenge) throw failed('wrong_challenge', status);
  await repo.markVerified(userId, url.href, now());
  return challenge;
}

/** `POST /rest/v1/webhooks/verify`: the challenge that passed. */
export async function verifyWebhook(deps: WebhooksDeps, ctx: PersonContext, input: { url: string }) {
  const userId = merchantOf(ctx);
  const challenge = await challengeUrl(deps, userId, input.url);
  return { challenge, url: webhookUrl(input.url).href };
}
