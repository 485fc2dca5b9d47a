import type { LedgerCurrency } from '../../../db/schema/index.ts';
import type { PersonContext, ServiceContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { LedgerService } from '../ledger/ledger.ts';
import type { NotifyInput } from '../notifications/notifications.ts';
import type { PriceFeed } from '../price-feed/price-feed.ts';
import type { ReferenceService } from '../reference/reference.ts';
import type { KiosksRepository } from './repository.ts';

/** What every verb of the kiosks service (kiosks.ts wires them) is made from. */
export interface KiosksDeps {
  repo: KiosksRepository;
  ledger: LedgerService;
  priceFeed: PriceFeed;
  /** Units of a fiat currency per US dollar, as offers are priced (the reference service). */
  reference: Pick<ReferenceService, 'fiatPerUsd'>;
  /** Tells the customer what they received, in the sale's transaction. */
  notify(ctx: ServiceContext, input: NotifyInput): Promise<unknown>;
  now: () => number;
}

/** A sale as the operator types it: who, which crypto, and the cash taken. */
export interface SaleInput {
  customer: string;
  currency: LedgerCurrency;
  fiatCurrency: string;
  /** Cents of the cash taken. */
  fiatCents: number;
}

const kioskOnly = () =>
  new AppError('FORBIDDEN', 'For kiosk accounts only. Ask support to make your account a kiosk.', {
    key: 'kiosk_only',
  });

/** The signed-in kiosk's user id; anyone else is refused. */
export const kioskOf = (ctx: PersonContext): number => {
  if (!ctx.auth.user.isKiosk) throw kioskOnly();
  return ctx.auth.user.id;
};
