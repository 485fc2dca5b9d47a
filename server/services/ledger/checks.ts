import { LEDGER_CURRENCIES, type LedgerCurrency } from '../../../db/schema/index.ts';
import { type FieldIssue, invalidInput } from '../errors.ts';
import { type AccountRef, accountKey, isOwnedRef, SYSTEM_KINDS } from './accounts.ts';
import { DIRECT_KINDS, type PostInput } from './types.ts';

// The ledger's checks of its input: pure, before any transaction, every problem at once.

const MAX_KEY_LENGTH = 200;
const MAX_MEMO_LENGTH = 500;
const MAX_REFERENCE_LENGTH = 100;
const MAX_LEGS = 20;

export const isCurrency = (value: unknown): value is LedgerCurrency =>
  LEDGER_CURRENCIES.includes(value as LedgerCurrency);

/** Safe, non-zero integers only: a float or a string amount is a bug in the caller. */
const isAmount = (value: unknown): value is number => Number.isSafeInteger(value) && value !== 0;
export const isPositiveAmount = (value: unknown): value is number => isAmount(value) && (value as number) > 0;

export function checkRef(ref: AccountRef, field: string, issues: FieldIssue[]): void {
  if (!ref || typeof ref !== 'object') {
    issues.push({ field, message: 'An account is required.' });
    return;
  }
  if (!isCurrency(ref.currency)) issues.push({ field: `${field}.currency`, message: 'The currency is BTC or USDT.' });
  if (isOwnedRef(ref)) {
    if (!Number.isSafeInteger(ref.userId) || ref.userId <= 0)
      issues.push({ field: `${field}.userId`, message: 'A user id is a positive integer.' });
  } else if (ref.kind === 'trade_escrow') {
    checkReference(ref.reference, `${field}.reference`, issues);
  } else if (!SYSTEM_KINDS.includes(ref.kind)) {
    issues.push({ field: `${field}.kind`, message: 'Unknown account kind.' });
  }
}

export function checkReference(reference: unknown, field: string, issues: FieldIssue[]): void {
  if (typeof reference !== 'string' || reference.length === 0 || reference.length > MAX_REFERENCE_LENGTH)
    issues.push({ field, message: `A trade reference is 1 to ${MAX_REFERENCE_LENGTH} characters.` });
}

export function checkCommon(input: { idempotencyKey: unknown; memo?: unknown }, issues: FieldIssue[]): void {
  const key = input.idempotencyKey;
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH || /[\p{Cc}]/u.test(key))
    issues.push({
      field: 'idempotencyKey',
      message: `An idempotency key is 1 to ${MAX_KEY_LENGTH} printable characters.`,
    });
  if (input.memo !== undefined && (typeof input.memo !== 'string' || input.memo.length > MAX_MEMO_LENGTH))
    issues.push({ field: 'memo', message: `A memo is at most ${MAX_MEMO_LENGTH} characters.` });
}

export function checkPost(input: PostInput): void {
  const issues: FieldIssue[] = [];
  checkCommon(input, issues);
  if (!(DIRECT_KINDS as string[]).includes(input.kind))
    issues.push({ field: 'kind', message: `The kind is one of ${DIRECT_KINDS.join(', ')}.` });
  const { metadata } = input;
  if (metadata !== undefined && (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)))
    issues.push({ field: 'metadata', message: 'Metadata is a JSON object.' });
  if (!Array.isArray(input.legs) || input.legs.length < 2 || input.legs.length > MAX_LEGS) {
    issues.push({ field: 'legs', message: `A transaction has 2 to ${MAX_LEGS} legs.` });
    throw invalidInput(issues);
  }
  const seen = new Set<string>();
  // BigInt: the sum of safe integers need not be one.
  const sums = new Map<string, bigint>();
  input.legs.forEach((leg, i) => {
    const before = issues.length;
    checkRef(leg?.account, `legs[${i}].account`, issues);
    if (!isAmount(leg?.amount))
      issues.push({ field: `legs[${i}].amount`, message: 'An amount is a non-zero whole number of minor units.' });
    if (issues.length > before) return;
    if (leg.account.kind === 'trade_escrow')
      issues.push({ field: `legs[${i}].account`, message: 'Escrow moves only by locking, releasing or returning.' });
    const key = accountKey(leg.account);
    if (seen.has(key)) issues.push({ field: `legs[${i}].account`, message: 'Each account appears once.' });
    seen.add(key);
    sums.set(leg.account.currency, (sums.get(leg.account.currency) ?? 0n) + BigInt(leg.amount));
  });
  for (const [currency, sum] of sums)
    if (sum !== 0n && issues.length === 0)
      issues.push({ field: 'legs', message: `The ${currency} legs sum to ${sum}, not zero.` });
  if (issues.length > 0) throw invalidInput(issues);
}
