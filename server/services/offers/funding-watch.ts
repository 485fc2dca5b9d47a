import type { EventBus } from '../../realtime/bus.ts';
import { LEDGER_CHANNEL, LEDGER_POSTED, type LedgerPostedEvent } from '../ledger/ledger.ts';
import { minorPerUsd } from './funding-needs.ts';
import type { OffersParts } from './types.ts';

// Listings leave out sell offers their owner cannot fund (decision 121), and searches are cached
// per 10-second bucket (search-cache.ts). A deposit, a trade's escrow, a release or a sendout
// changes a wallet; when the change moves one of the owner's sell offers across its need, the
// cached searches are dropped here and, over the bus, in every process, so the offer shows or
// goes at once. Other changes keep the cache. A price tick moves margin offers' needs in crypto:
// those follow with the next bucket, which starts with each tick anyway.

export function watchVendorFunds(
  { repo, catalogue, views, searches }: Pick<OffersParts, 'repo' | 'catalogue' | 'views' | 'searches'>,
  bus: EventBus,
  onError: (error: unknown) => void,
): () => void {
  const check = async ({ wallets }: LedgerPostedEvent) => {
    const names = await catalogue;
    const rates = await views.marketRates();
    for (const { userId, currency, amount } of wallets) {
      const crypto = names.cryptoByCode(currency);
      if (!crypto || amount === 0) continue;
      const crossed = await repo.fundsCrossedNeed({
        ownerId: userId,
        crypto: crypto.code,
        cryptoCurrencyId: crypto.id,
        amount,
        minorPerUsd: minorPerUsd(rates.fiatPerCrypto(crypto.code, 'USD'), crypto.decimals),
      });
      if (crossed) {
        searches.invalidate();
        return;
      }
    }
  };
  // `here`: the process that committed checks once; invalidate() tells the others.
  return bus.subscribe(LEDGER_CHANNEL, (event) => {
    if (event.type !== LEDGER_POSTED) return;
    const posted = event.payload as LedgerPostedEvent;
    if (posted.wallets.length > 0) check(posted).catch(onError);
  });
}
