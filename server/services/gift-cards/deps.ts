import type { EventBus } from '../../realtime/bus.ts';
import type { OffersService } from '../offers/offers.ts';
import type { TradesRepository } from '../trades/repository.ts';
import type { TradesService } from '../trades/trades.ts';
import type { FileStore } from '../trades/upload-files.ts';
import type { GiftCardsRepository } from './repository.ts';
import type { CodeVault } from './vault.ts';

/** What every verb of the gift-cards service (gift-cards.ts wires them) is made from. */
export interface GiftCardsDeps {
  repo: GiftCardsRepository;
  vault: CodeVault;
  /** The pictures of cards and receipts, under UPLOADS_DIR/gift-cards/. */
  files: FileStore;
  /** Starts the trade (the same eight checks as any) and tells who may read one. */
  trades: Pick<TradesService, 'start' | 'access' | 'returnUnredeemed'>;
  /** The chat's system lines of card changes, in the change's transaction. */
  tradesRepo: Pick<TradesRepository, 'insertMessage'>;
  /** The offer a card list or a start is for, as the person sees it. */
  offers: Pick<OffersService, 'forTradeStart'>;
  bus: EventBus;
  now: () => number;
}
