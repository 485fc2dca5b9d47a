import { newId } from '../../../db/ids.ts';
import type { KioskSaleResult } from '../../../src/lib/shared/views/kiosks.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { kioskBalanceOf, systemAccount, walletOf } from '../ledger/ledger.ts';
import { type KiosksDeps, kioskOf, type SaleInput } from './deps.ts';
import { customerOf, priced, quote, saleFee } from './quote.ts';
import { amountText, kioskBalance, saleView } from './views.ts';

// The sale (docs/kiosks-and-merchants.md): the customer pays cash at the counter, so there is no
// offer, chat or escrow wait. One `kiosk_sale` ledger transaction moves the crypto from the kiosk
// balance to the customer's wallet and the fee to fee income; the kiosk_sales row keeps the cash
// side, and the customer is told, all in that transaction.

/** How far the price may move between the quote the operator read and the sale, in basis points. */
export const KIOSK_PRICE_TOLERANCE_BASIS_POINTS = 100;

export type SaleRequest = SaleInput & { amount: number; idempotencyKey: string };
type Customer = Awaited<ReturnType<typeof customerOf>>;

const reused = () =>
  new AppError('IDEMPOTENCY_KEY_REUSED', 'This key was used for another request; send a new one.', {
    field: 'idempotency_key',
  });

/** The first sale made with this key, or IDEMPOTENCY_KEY_REUSED when the key posted something else. */
async function replay(deps: KiosksDeps, ctx: PersonContext, kioskId: number, key: string): Promise<KioskSaleResult> {
  const first = await deps.ledger.transactionByKey(ctx, { idempotencyKey: key });
  const row = first?.kind === 'kiosk_sale' ? await deps.repo.saleByTransaction(first.id) : undefined;
  if (!row) throw reused();
  return { sale: saleView(row), balance: await kioskBalance(deps, ctx, kioskId), replayed: true };
}

/** Posts the sale, writes its row and tells the customer; undefined when a racing twin posted first. */
async function writeSale(
  deps: KiosksDeps,
  ctx: PersonContext,
  sale: { kioskId: number; key: string; customer: Customer; input: SaleRequest; marginBasisPoints: number },
): Promise<string | undefined> {
  const { kioskId, key, customer, input } = sale;
  const fee = saleFee(input.amount);
  return immediate(deps.repo.db, async (tx) => {
    const posted = await deps.ledger.post(
      { ...ctx, tx },
      {
        kind: 'kiosk_sale',
        idempotencyKey: key,
        memo: `kiosk sale to ${customer.username}`,
        metadata: { fiatCurrency: input.fiatCurrency, fiatCents: input.fiatCents },
        legs: [
          { account: kioskBalanceOf(kioskId, input.currency), amount: -(input.amount + fee) },
          { account: walletOf(customer.id, input.currency), amount: input.amount },
          { account: systemAccount('fee_income', input.currency), amount: fee },
        ],
      },
    );
    if (posted.replayed) return undefined;
    await deps.repo.insertSale({
      publicId: newId('kos'),
      kioskId,
      customerId: customer.id,
      currency: input.currency,
      amount: input.amount,
      fee,
      fiatCurrency: input.fiatCurrency,
      fiatCents: input.fiatCents,
      marginBasisPoints: sale.marginBasisPoints,
      ledgerTransactionId: posted.id,
      createdAt: deps.now(),
    });
    const params = {
      username: ctx.auth.user.username,
      amount: amountText(input.currency, input.amount),
      currency: input.currency,
    };
    await deps.notify(
      { ...ctx, tx },
      { userId: customer.id, type: 'kiosk_purchase', link: '/wallet', message: { key: 'kiosk_purchase', params } },
    );
    return posted.id;
  });
}

/**
 * The quoted `amount` (minor units) to the customer's wallet if the price is still within the
 * tolerance of it, else 409 KIOSK_PRICE_MOVED with the new quote. Once per key: a retry answers
 * the first sale.
 */
export async function sell(deps: KiosksDeps, ctx: PersonContext, input: SaleRequest): Promise<KioskSaleResult> {
  const kioskId = kioskOf(ctx);
  const key = `kiosk-sale:${kioskId}:${input.idempotencyKey}`;
  if (await deps.ledger.transactionByKey(ctx, { idempotencyKey: key })) return replay(deps, ctx, kioskId, key);
  const customer = await customerOf(deps, kioskId, input.customer);
  const current = await priced(deps, ctx, kioskId, input);
  if (Math.abs(current.amount - input.amount) * 10_000 > current.amount * KIOSK_PRICE_TOLERANCE_BASIS_POINTS)
    throw new AppError('KIOSK_PRICE_MOVED', 'The price moved since the quote. Read the new one to the customer.', {
      key: 'kiosk_price_moved',
      meta: { quote: await quote(deps, ctx, input) },
    });
  const sale = { kioskId, key, customer, input, marginBasisPoints: current.marginBasisPoints };
  const transactionId = await writeSale(deps, ctx, sale);
  // Two requests racing with one key: the second replays the first's sale.
  if (transactionId === undefined) return replay(deps, ctx, kioskId, key);
  const row = await deps.repo.saleByTransaction(transactionId);
  if (!row) throw new Error(`kiosk sale ${transactionId} was not written`);
  return { sale: saleView(row), balance: await kioskBalance(deps, ctx, kioskId), replayed: false };
}
