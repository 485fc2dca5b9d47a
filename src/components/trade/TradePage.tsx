import { useCallback, useEffect, useRef, useState } from 'react';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import { type IslandMessages, islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { type RealtimeEvent, useChannel } from '../../lib/use-channel.ts';
import { Countdown } from './Countdown.tsx';
import { DisputeForm } from './DisputeForm.tsx';
import { FeedbackForm } from './FeedbackForm.tsx';
import { ModeratorPanel } from './ModeratorPanel.tsx';
import { PaymentDetails } from './PaymentDetails.tsx';
import { TradeActions } from './TradeActions.tsx';
import { TradeChat } from './TradeChat.tsx';
import { TradeInfo } from './TradeInfo.tsx';
import { TradeTerms } from './TradeTerms.tsx';
import {
  type DisputeReasonOption,
  fresher,
  mergeMessages,
  type TradeMessageView,
  type TradeUploadView,
  type TradeView,
} from './trade-logic.ts';

// The trade page's island (spec section 2 "Trade links", sections 3, 4 and 8): the first render
// comes from the server; the trade's channel `trade:<hash>` then brings chat lines, status events
// (a `paid` event marks the trade paid at once; every status event reloads the trade) and
// requirement changes. Both parties (and a moderator) may have the page open at once: every
// change arrives on every page. If the channel cannot be kept, the page tells the server
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
}

const POLL_MS = 10_000;
const RATEABLE = ['released', 'dispute_won_buyer', 'dispute_won_seller'];

export default function TradePage(props: TradePageProps) {
  const t = islandTranslator(props.messages);
  const hash = props.trade.hash;
  const [trade, setTrade] = useState(props.trade);
  const [chat, setChat] = useState(props.chat);
  const [uploads, setUploads] = useState(props.uploads);
  const [live, setLive] = useState<'connecting' | 'live' | 'polling'>('connecting');
  const lastId = useRef(0);
  lastId.current = chat.at(-1)?.id ?? 0;

  const replace = useCallback((next: TradeView) => setTrade((shown) => fresher(shown, next)), []);
  const refresh = useCallback(async () => {
    const result = await apiGet<TradeView>(`/rest/v1/trade/${hash}`);
    if (result.ok && result.data) replace(result.data);
  }, [hash, replace]);
  const refreshUploads = useCallback(async () => {
    const result = await apiGet<TradeUploadView[]>(`/rest/v1/trade/${hash}/uploads`);
    if (result.ok && result.data) setUploads(result.data);
  }, [hash]);
  const loadMessages = useCallback(async () => {
    const result = await apiGet<TradeMessageView[]>(`/rest/v1/trade/${hash}/messages?after=${lastId.current}`);
    if (result.ok && result.data) {
      const lines = result.data;
      setChat((shown) => mergeMessages(shown, lines));
    }
  }, [hash]);
  const addMessages = useCallback((lines: TradeMessageView[]) => setChat((shown) => mergeMessages(shown, lines)), []);

  useChannel(
    `trade:${hash}`,
    (event: RealtimeEvent) => {
      if (event.type === 'message') {
        addMessages([event.payload as TradeMessageView]);
      } else if (event.type === 'requirements') {
        void refresh();
        void refreshUploads();
      } else {
        // Spec section 4: a `paid` event marks the trade paid before the reload answers.
        if (event.type === 'paid') setTrade((shown) => ({ ...shown, status: 'paid', isPaid: true }));
        void refresh();
        // A transition writes its system line without a message event: fetch it.
        void loadMessages();
      }
    },
    {
      // A (re)subscription may have missed events: catch up.
      onSubscribed: () => {
        setLive('live');
        void refresh();
        void loadMessages();
        void refreshUploads();
      },
      onFailed: () => {
        setLive('polling');
        void apiPost(`/rest/v1/trade/${hash}/fallback`);
      },
    },
  );

  // Polling when the channel is gone; moderators poll anyway, as moderator-only lines are not pushed.
  const polls = live === 'polling' || trade.role === 'moderator';
  useEffect(() => {
    if (!polls) return;
    const timer = setInterval(() => {
      void refresh();
      void loadMessages();
      void refreshUploads();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [polls, refresh, loadMessages, refreshUploads]);

  const onUploads = (list?: TradeUploadView[]) => {
    if (list) setUploads(list);
    void refresh();
  };

  return (
    <div className="trade-layout" data-trade={hash} data-status={trade.status} data-role={trade.role}>
      <div className="trade-main">
        <TradeInfo trade={trade} t={t} lang={props.lang} prefix={props.prefix} />
        {trade.status === 'active_funded' && <Countdown expiresAt={trade.expiresAt} t={t} onElapsed={refresh} />}
        {trade.status === 'paid' && trade.role !== 'moderator' && (
          <p className="alert alert-info" role="status">
            {t(trade.role === 'buyer' ? 'trade.hint.paidBuyer' : 'trade.hint.paidSeller')}
          </p>
        )}
        {trade.status === 'dispute_open' && trade.role !== 'moderator' && (
          <p className="alert alert-info" role="status">
            {t('trade.hint.dispute')}
          </p>
        )}
        <ModeratorPanel trade={trade} reasons={props.reasons} t={t} onTrade={replace} />
        <TradeActions trade={trade} t={t} lang={props.lang} onTrade={replace} />
        <DisputeForm trade={trade} reasons={props.reasons} t={t} lang={props.lang} onTrade={replace} />
        {trade.role !== 'moderator' && RATEABLE.includes(trade.status) && <FeedbackForm trade={trade} t={t} />}
        <PaymentDetails trade={trade} uploads={uploads} t={t} onChanged={onUploads} />
      </div>
      <TradeChat trade={trade} messages={chat} me={props.me} t={t} lang={props.lang} live={live} onSent={addMessages} />
      <TradeTerms trade={trade} t={t} />
    </div>
  );
}
