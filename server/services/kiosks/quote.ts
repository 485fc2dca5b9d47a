import { escrowFeeBasisPoints } from '../../../src/lib/shared/fees.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../../src/lib/shared/money.ts';
import type { KioskQuote } from '../../../src/lib/shared/views/kiosks.ts';
import type { PersonContext } from '../context.ts';
import { AppError, invalidInput } from '../errors.ts';
import { type KiosksDeps, kioskOf, type SaleInput } from './deps.ts';
import { amountText, percentText } from './views.ts';

// What a sale would be now: the customer checked, the cash priced at the market price plus the
// kiosk's margin, and the escrow fee a trade of that size would pay.

/** The escrow fee on `amount` minor units, rounded up as trades round it. */
export const saleFee = (amount: number) => Math.ceil((amount * escrowFeeBasisPoints('default')) / 10_000);

/** The customer, by username: an active account that is not the kiosk's own. */
export async function customerOf({ repo }: KiosksDeps, kioskId: number, username: string) {
  const found = await repo.customerByName(username);
  if (!found)
    throw invalidInput([
      { field: 'customer', message: 'No account has this username.', key: 'kiosk_customer_unknown' },
    ]);
  if (found.id === kioskId)
    throw invalidInput([{ field: 'customer', message: 'A kiosk cannot sell to itself.', key: 'kiosk_customer_self' }]);
  if (found.status !== 'active')
    throw invalidInput([
      { field: 'customer', message: 'This account cannot receive crypto now.', key: 'kiosk_customer_inactive' },
    ]);
  return found;
}

/** What `input` buys at the current price with the kiosk's margin, in minor units. */
export async function priced(
  { repo, reference, priceFeed }: KiosksDeps,
  ctx: PersonContext,
  kioskId: number,
  input: SaleInput,
) {
  const perUsd = await reference.fiatPerUsd(ctx, { code: input.fiatCurrency, field: 'fiatCurrency' }).catch((error) => {
    if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error;
    throw invalidInput([
      { field: 'fiatCurrency', message: 'No price is known in this currency.', key: 'kiosk_currency_unknown' },
    ]);
  });
  const marginBasisPoints = await repo.marginOf(kioskId);
  const marketPrice = priceFeed.usdPrice(input.currency) * perUsd;
  const price = marketPrice * (1 + marginBasisPoints / 10_000);
  const amount = Math.floor((input.fiatCents / 100 / price) * 10 ** CRYPTO_DECIMALS[input.currency]);
  if (amount <= 0)
    throw invalidInput([
      { field: 'fiatAmount', message: 'The amount buys less than the smallest unit.', key: 'kiosk_amount_too_small' },
    ]);
  return { amount, fee: saleFee(amount), marketPrice, price, marginBasisPoints };
}

/** What a sale would be now, for the operator to read out before confirming. */
export async function quote(deps: KiosksDeps, ctx: PersonContext, input: SaleInput): Promise<KioskQuote> {
  const kioskId = kioskOf(ctx);
  const customer = await customerOf(deps, kioskId, input.customer);
  const { amount, fee, marketPrice, price, marginBasisPoints } = await priced(deps, ctx, kioskId, input);
  return {
    customer: customer.username,
    currency: input.currency,
    amount: amountText(input.currency, amount),
    fee: amountText(input.currency, fee),
    fiatCurrency: input.fiatCurrency,
    fiatAmount: fromMinorUnits(input.fiatCents, 2),
    marketPrice: marketPrice.toFixed(2),
    price: price.toFixed(2),
    marginPercent: percentText(marginBasisPoints),
  };
}
