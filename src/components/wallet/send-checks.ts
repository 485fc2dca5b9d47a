import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import { addAmounts, CRYPTO_DECIMALS, fromMinorUnits, toMinorUnits } from '../../lib/shared/money.ts';
import type { CryptoCode, NetworkInfo } from './types.ts';

// What the send modal can tell before anyone reviews a sendout, without React: the most that can
// go out (the balance less the fee), the total a sendout takes from the wallet, and the problems
// the form shows before the review step. The server checks again (the address's format and
// checksum only there: spec section 6) and its verdicts win.

type T = (key: string, params?: Record<string, string | number>) => string;

/** The balance less the network fee, as decimal text without trailing zeros (or 0). */
export function maxSendable(balance: string, fee: string, currency: CryptoCode): string {
  const decimals = CRYPTO_DECIMALS[currency];
  const left = (toMinorUnits(balance, decimals) ?? 0) - (toMinorUnits(fee, decimals) ?? 0);
  return left > 0 ? fromMinorUnits(left, decimals).replace(/\.?0+$/, '') : '0';
}

/** What a sendout of `amount` takes from the wallet: the amount and the network fee on top. */
export const totalDebited = (amount: string, fee: string, currency: CryptoCode) =>
  addAmounts(amount, fee, CRYPTO_DECIMALS[currency]);

export interface SendDraft {
  currency: CryptoCode;
  address: string;
  amount: string;
  balance: string;
  info: NetworkInfo;
}

/** The amount's problem: not an amount, below the network's smallest sendout, more than the balance holds. */
function amountProblem(t: T, lang: string, { currency, amount, balance, info }: SendDraft): string | undefined {
  const decimals = CRYPTO_DECIMALS[currency];
  const minor = toMinorUnits(amount, decimals);
  if (minor === undefined || minor <= 0) return t('wallet.convert.amountInvalid', { decimals });
  if (minor < (toMinorUnits(info.min, decimals) ?? 0))
    return t('wallet.send.error.min', { min: formatCryptoAmount(info.min, currency, lang) });
  const total = toMinorUnits(totalDebited(amount, info.fee, currency), decimals) ?? 0;
  if (total > (toMinorUnits(balance, decimals) ?? 0))
    return t('wallet.send.error.funds', { fee: formatCryptoAmount(info.fee, currency, lang) });
  return undefined;
}

/** The fields' problems before the review step (empty when it may be reviewed). */
export function draftProblems(t: T, lang: string, draft: SendDraft): Record<string, string> {
  const problems: Record<string, string> = {};
  if (draft.address.trim() === '') problems.address = t('wallet.send.error.address');
  const amount = amountProblem(t, lang, { ...draft, amount: draft.amount.trim() });
  if (amount) problems.amount = amount;
  return problems;
}
