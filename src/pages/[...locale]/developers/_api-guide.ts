// The content of the developers' page's "API for bots" section (#api, index.astro): what
// docs/api.md says in English, in the reader's language, with the numbers taken from
// src/lib/shared/api-keys.ts, which the server runs by. The bot's code itself is read from
// docs/api.md by the page. Not a route (underscore).
import {
  API_KEY_RATE_LIMIT,
  API_KEY_RATE_WINDOW_SECONDS,
  API_KEY_TIMESTAMP_SKEW_SECONDS,
  canonicalRequest,
  MAX_API_KEYS,
} from '../../../lib/shared/api-keys.ts';
import { type Locale, localizePath } from '../../../lib/shared/i18n/locales.ts';
import type { MessageKey } from '../../../lib/shared/i18n/messages.ts';
import { code, type DocsText } from './_docs-text.ts';

/** The section's parts, for the table of contents. */
export const API_SECTIONS: [id: string, key: MessageKey][] = [
  ['api-keys', 'developers.api.keys.title'],
  ['api-signing', 'developers.api.signing.title'],
  ['api-limits', 'developers.api.limits.title'],
  ['api-never', 'developers.api.never.title'],
  ['api-bot', 'developers.api.bot.title'],
];

/** `meta.reason` of a 401 to a signed request (docs/api.md). */
export const REFUSAL_REASONS = [
  'unknown_key',
  'bad_timestamp',
  'bad_nonce',
  'replayed',
  'bad_signature',
  'key_root_changed',
] as const;

/** What a key never reaches (API_KEY_OFF_LIMITS in server/http/api-key-auth.ts), in words. */
export const OFF_LIMITS = ['security', 'keys', 'withdrawals', 'moderation', 'identity', 'devices', 'uploads'] as const;

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** The text a GET of the second page of wallet transactions signs, with a made-up time and nonce. */
export const CANONICAL_EXAMPLE = canonicalRequest(
  'GET',
  '/rest/v1/wallet/transactions?page=2',
  '1767225600',
  'q7Rz2LmX9vKc4TbN',
  EMPTY_SHA256,
);

export const RATE_POLICY = `${API_KEY_RATE_LIMIT};w=${API_KEY_RATE_WINDOW_SECONDS}`;

/** The section's translated pieces that carry code, links or numbers, as HTML. */
export function apiGuide(locale: Locale, { t, rich, duration }: DocsText) {
  return {
    keyFacts: [
      rich('developers.api.keys.who', {
        settings: { href: `${localizePath(locale, '/settings')}#api-keys`, text: t('developers.api.keys.where') },
        max: String(MAX_API_KEYS),
      }),
      rich('developers.api.keys.scopes', { read: code('read'), trade: code('trade'), get: code('GET') }),
      rich('developers.api.keys.secret', { secret: code('cs_…') }),
      rich('developers.api.keys.revoke'),
    ],
    signingHeaders: [
      ['X-Api-Key', rich('developers.api.signing.key', { id: code('ck_…') })],
      ['X-Api-Timestamp', rich('developers.api.signing.timestamp', { skew: duration(API_KEY_TIMESTAMP_SKEW_SECONDS) })],
      ['X-Api-Nonce', rich('developers.api.signing.nonce', { chars: code('A-Z a-z 0-9 _ -') })],
      ['X-Api-Signature', rich('developers.api.signing.signature')],
    ] as [name: string, html: string][],
    canonicalLines: [
      rich('developers.api.signing.lineMethod'),
      rich('developers.api.signing.linePath'),
      rich('developers.api.signing.lineTimestamp', { header: code('X-Api-Timestamp') }),
      rich('developers.api.signing.lineNonce', { header: code('X-Api-Nonce') }),
      rich('developers.api.signing.lineBody'),
    ],
    rate: rich('developers.api.limits.rate', {
      count: String(API_KEY_RATE_LIMIT),
      window: duration(API_KEY_RATE_WINDOW_SECONDS),
    }),
    rateHeaders: [
      ['RateLimit-Limit', rich('developers.api.limits.limit', { example: code(String(API_KEY_RATE_LIMIT)) })],
      ['RateLimit-Remaining', rich('developers.api.limits.remaining')],
      ['RateLimit-Reset', rich('developers.api.limits.reset')],
      ['RateLimit-Policy', rich('developers.api.limits.policy', { example: code(RATE_POLICY) })],
    ] as [name: string, html: string][],
  };
}

/**
 * The one ```js block of docs/api.md's text, and the environment variables it reads
 * (`const { A, B = '1' } = process.env`).
 */
export function botExample(markdown: string): { code: string; env: string[] } {
  const blocks = [...markdown.matchAll(/^```js\n([\s\S]*?)^```$/gm)];
  if (blocks.length !== 1) throw new Error(`docs/api.md should hold one \`\`\`js block, not ${blocks.length}`);
  const code = (blocks[0]?.[1] ?? '').trimEnd();
  const env = (/const \{([^}]*)\} = process\.env/.exec(code)?.[1] ?? '')
    .split(',')
    .map((name) => name.split('=')[0]?.trim() ?? '')
    .filter(Boolean);
  return { code, env };
}
