// Profile rules of spec section 5 ("Profile"), shared by the settings form (instant feedback) and
// the server (the rule). Isomorphic: no Node APIs. The keys are the spec's translation keys.

export const BIO_MAX_LENGTH = 500;
export const BIO_MAX_LINES = 10;
/** Minutes in a day: a longer pause between trade-message notifications means none at all. */
export const NOTIFY_INTERVAL_MAX_MINUTES = 1440;
export const NOTIFY_INTERVAL_DEFAULT_MINUTES = 10;

export type BioIssueKey = 'bio_max' | 'bio_contact_error' | 'bio_limit';
export type IntervalIssueKey = 'notification_digits_error' | 'notification_error';
export type ContactKind = 'phone' | 'email' | 'url' | 'messenger';

/** What is stored and checked: surrounding blank space dropped, one kind of line break. */
export function normalizeBio(bio: string): string {
  return bio.replace(/\r\n?/g, '\n').trim();
}

/** Characters as people count them: an emoji is one, not two UTF-16 units. */
export function bioLength(bio: string): number {
  return [...bio].length;
}

export function bioLineCount(bio: string): number {
  return bio === '' ? 0 : bio.split('\n').length;
}

/** The first rule a (normalized) bio breaks, in the spec's order, or null. */
export function bioIssue(bio: string): BioIssueKey | null {
  // Length first: it also bounds the text the contact patterns scan.
  if (bioLength(bio) > BIO_MAX_LENGTH) return 'bio_max';
  if (findContactDetails(bio) !== null) return 'bio_contact_error';
  if (bioLineCount(bio) > BIO_MAX_LINES) return 'bio_limit';
  return null;
}

// Contact details in a public profile take trades off the platform, where escrow cannot protect
// anyone. The patterns aim at what people actually write, plus the usual dressing (`dot com`,
// full-width digits, zero-width spaces); they are not meant to stop a determined obfuscator.

/** Separators people put inside phone numbers: spaces, dashes, parentheses (not dots: decimals). */
const PHONE_CANDIDATE = /\+?\(?\d(?:[ \t()-]{0,3}\d)+/g;
const PHONE_MIN_DIGITS = 7;
/** After a number, these make it an amount or a count ("25000 USD", "500+ trades", "10%"). */
const AMOUNT_AFTER =
  /^\s?(?:\+|%|k\b|[$€£¥₦₹₽₺₩₫₱₴₵]|(?:usd|usdt|eur|gbp|ngn|ghs|kes|zar|inr|pkr|rub|uah|brl|ars|ves|cop|mxn|cny|jpy|krw|vnd|php|idr|cad|aud|chf|aed|btc|sats)\b)/i;
const AMOUNT_BEFORE = /(?:[$€£¥₦₹₽₺₩₫₱₴₵]\s?|\d[.,])$/;
const DATE = /^(?:\d{4}-\d{1,2}-\d{1,2}|\d{1,2}-\d{1,2}-\d{4})$/;

function containsPhoneNumber(text: string): boolean {
  for (const match of text.matchAll(PHONE_CANDIDATE)) {
    const candidate = match[0];
    if (candidate.replace(/\D/g, '').length < PHONE_MIN_DIGITS) continue;
    const at = match.index ?? 0;
    if (DATE.test(candidate)) continue;
    if (AMOUNT_BEFORE.test(text.slice(Math.max(0, at - 2), at))) continue;
    if (AMOUNT_AFTER.test(text.slice(at + candidate.length))) continue;
    return true;
  }
  return false;
}

const EMAIL = /[^\s@]+@[^\s@]+\.[a-z]{2,}|\b(?:gmail|googlemail|yahoo|hotmail|outlook|proton\s?mail|icloud)\b/i;

/** Common generic and country top-level domains; a full list would flag "fast.No" typos. */
const TLDS =
  'com|net|org|info|biz|io|co|me|app|dev|xyz|online|site|shop|store|link|click|top|club|pro|tech|live|cc|tv|ly|gg|ws|ru|su|ua|by|kz|de|uk|fr|es|it|nl|pl|br|ar|mx|ng|gh|ke|za|in|pk|id|ph|vn|cn|hk|jp|kr|tr|ir|ae|sa|eu|us|ca|au|nz|ch|be|se|dk|fi|pt|cz|ro|hu|gr|il';
const URL_PATTERNS = [
  /\bhttps?\b/i,
  /\bwww\b/i,
  new RegExp(`\\b[a-z0-9_-]+(?:\\.[a-z0-9_-]+)*\\.(?:${TLDS})\\b`, 'i'),
  // "fast-btc dot com", "fast-btc[.]com", "fast-btc (dot) net"
  /\b[a-z0-9_-]+\s*(?:\[\.\]|\(\.\)|\[dot\]|\(dot\)|\{dot\}|\bdot\b)\s*(?:com|net|org|io|me|co)\b/i,
];

const MESSENGER_PATTERNS = [
  /(?:^|[^\w@])@[a-z_][\w.]{2,}/i,
  /\b(?:t|wa|m)\.me\b/i,
  /\b(?:whats\s?app|telegram|tele\s+gram|signal|skype|discord|viber|we\s?chat|snapchat|instagram|facebook|messenger|fb|icq|kik|threema)\b/i,
];

/** Invisible characters and full-width digits are ways around the patterns, not content. */
function canonical(text: string): string {
  return text.normalize('NFKC').replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, '');
}

/** The kind of contact detail the text contains, or null when it has none. */
export function findContactDetails(text: string): ContactKind | null {
  const value = canonical(text);
  if (EMAIL.test(value)) return 'email';
  if (MESSENGER_PATTERNS.some((p) => p.test(value))) return 'messenger';
  if (URL_PATTERNS.some((p) => p.test(value))) return 'url';
  if (containsPhoneNumber(value)) return 'phone';
  return null;
}

export type IntervalCheck = { ok: true; minutes: number } | { ok: false; key: IntervalIssueKey };

/** The form sends the minutes as typed (text); API clients may send a number. */
export function checkNotifyInterval(value: unknown): IntervalCheck {
  const text = typeof value === 'number' && Number.isInteger(value) && value >= 0 ? String(value) : value;
  if (typeof text !== 'string' || !/^\d+$/.test(text)) return { ok: false, key: 'notification_digits_error' };
  const minutes = Number(text);
  if (minutes > NOTIFY_INTERVAL_MAX_MINUTES) return { ok: false, key: 'notification_error' };
  return { ok: true, minutes };
}
