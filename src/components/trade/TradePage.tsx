import { type IslandMessages, islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import type { GiftCodeCheckView } from '../../lib/shared/views/gift-cards.ts';
import { Countdown } from './Countdown.tsx';
import { DisputeClock } from './DisputeClock.tsx';
import { DisputeForm } from './DisputeForm.tsx';
import { FeedbackForm } from './FeedbackForm.tsx';
import { GiftCodeCheck } from './GiftCodeCheck.tsx';
import { ModeratorPanel } from './ModeratorPanel.tsx';
import { PaymentDetails } from './PaymentDetails.tsx';
import { TradeActions } from './TradeActions.tsx';
import { TradeChat } from './TradeChat.tsx';
import { TradeInfo } from './TradeInfo.tsx';
import { TradeTerms } from './TradeTerms.tsx';
import type { DisputeReasonOption, TradeMessageView, TradeUploadView, TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';
import { useTradeData } from './use-trade-data.ts';
import { useTradeSync } from './use-trade-sync.ts';

// The trade page's island (spec section 2 "Trade links", sections 3, 4 and 8): the first render
// comes from the server; the trade's channel `trade:<hash>` then brings chat lines, status events
// (a `paid` event marks the trade paid at once; every status event reloads the trade) and
// requirement changes. Both parties (and a moderator) may have the page open at once: every
// change arrives on every page. A gift-card trade shows its gift code check. If the channel cannot be kept, the page tells the server
// (…/fallback) and polls every 10 s.

export interface TradePageProps {
  lang: string;
  /** `''` for English, `/de` and so on: links to other pages. */
  prefix: string;
  messages: IslandMessages;
  me: string;
  trade: TradeView;
  chat: TradeMessageView[];
  uploads: TradeUploadView[];
  reasons: DisputeReasonOption[];
  /** The gift code check of a gift-card trade (the server answers it for those only), else null. */
  giftCards: GiftCodeCheckView | null;
  /** The server's time (unix ms) when it rendered the page: its deadlines are read by its clock. */
  serverNow: number;
}

const RATEABLE = ['released', 'dispute_won_buyer', 'dispute_won_seller'];

export default function TradePage(props: TradePageProps) {
  const t = islandTranslator(props.messages);
  const hash = props.trade.hash;
  const data = useTradeData(props);
  const live = useTradeSync(hash, data);
  const { trade, replace, refresh } = data;

  const onUploads = (list?: TradeUploadView[]) => {
    if (list) data.setUploads(list);
    void refresh();
  };

  const details = (
    <PaymentDetails
      trade={trade}
      uploads={data.uploads}
      prefix={props.prefix}
      t={t}
      onChanged={onUploads}
      onTrade={replace}
    />
  );
  // Until the buyer paid, where to pay comes before "I have paid" (and the seller's form before
  // "Release"); afterwards the actions, the dispute and feedback lead.
  const detailsFirst = trade.status === 'active_funded';

  return (
    <div className="trade-layout" data-trade={hash} data-status={trade.status} data-role={trade.role}>
      <div className="trade-main">
        <TradeInfo trade={trade} t={t} lang={props.lang} prefix={props.prefix} />
        {trade.status === 'active_funded' && (
          <Countdown expiresAt={trade.expiresAt} serverNow={props.serverNow} t={t} onElapsed={refresh} />
        )}
        <StatusHint trade={trade} t={t} />
        <DisputeClock trade={trade} me={props.me} serverNow={props.serverNow} t={t} onElapsed={refresh} />
        <ModeratorPanel trade={trade} reasons={props.reasons} t={t} onTrade={replace} />
        {props.giftCards && (
          <GiftCodeCheck
            trade={trade}
            initial={props.giftCards}
            t={t}
            lang={props.lang}
            prefix={props.prefix}
            tick={data.cardsTick}
            onTrade={replace}
          />
        )}
        {detailsFirst && details}
        <TradeActions trade={trade} t={t} lang={props.lang} onTrade={replace} />
        <DisputeForm
          trade={trade}
          reasons={props.reasons}
          t={t}
          lang={props.lang}
          serverNow={props.serverNow}
          onTrade={replace}
          onDue={refresh}
        />
        {trade.role !== 'moderator' && RATEABLE.includes(trade.status) && <FeedbackForm trade={trade} t={t} />}
        {!detailsFirst && details}
      </div>
      <TradeChat
        trade={trade}
        messages={data.chat}
        me={props.me}
        t={t}
        lang={props.lang}
        live={live}
        onSent={data.addMessages}
      />
      <TradeTerms trade={trade} t={t} />
    </div>
  );
}

/** What the party waits for while the trade is paid or disputed. */
function StatusHint({ trade, t }: { trade: TradeView; t: T }) {
  if (trade.role === 'moderator') return null;
  if (trade.status === 'paid') {
    return (
      <p className="alert alert-info" role="status">
        {t(trade.role === 'buyer' ? 'trade.hint.paidBuyer' : 'trade.hint.paidSeller')}
      </p>
    );
  }
  if (trade.status === 'dispute_open') {
    return (
      <p className="alert alert-info" role="status">
        {t('trade.hint.dispute')}
      </p>
    );
  }
  return null;
}
