import { useEffect, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { type RealtimeEvent, useChannel } from '../../lib/use-channel.ts';
import type { TradeMessageView } from './trade-logic.ts';
import type { TradeData } from './use-trade-data.ts';

// Keeping the trade page current: the trade's channel `trade:<hash>` brings chat lines, status
// events, requirement changes, gift-card changes, the bank account the seller shares and the
// payment details the seller writes, a dispute's clocks (`dispute`: taken, escalated, an answer
// missed); if the
// channel cannot be kept, the page tells the server (…/fallback) and polls every 10 s. Moderators
// poll anyway, as moderator-only lines are not pushed.

export type Live = 'connecting' | 'live' | 'polling';

const POLL_MS = 10_000;

export function useTradeSync(hash: string, data: TradeData): Live {
  const { refresh, loadMessages, refreshUploads, cardsChanged } = data;
  const [live, setLive] = useState<Live>('connecting');

  useChannel(
    `trade:${hash}`,
    (event: RealtimeEvent) => {
      if (event.type === 'message') {
        data.addMessages([event.payload as TradeMessageView]);
        // A line may be the counterpart's answer to a dispute: its clock stops (issue 24).
        if (data.trade.dispute.clocks.some((c) => c.step === 'answer')) void refresh();
      } else if (event.type === 'gift_cards') {
        // A card added, removed or opened: the gift code check reads them again, the chat its line.
        cardsChanged();
        void loadMessages();
      } else if (event.type === 'requirements') {
        void refresh();
        void refreshUploads();
      } else if (event.type === 'bank_account') {
        // The seller shared (or replaced) the account to pay into: the trade view carries it.
        void refresh();
      } else if (event.type === 'payment_details') {
        // The seller wrote where to pay: the trade view carries it, the chat its line.
        void refresh();
        void loadMessages();
      } else {
        if (event.type === 'paid') data.markPaid();
        void refresh();
        // A transition writes its system line without a message event: fetch it.
        void loadMessages();
      }
    },
    {
      // A (re)subscription may have missed events: catch up.
      onSubscribed: () => {
        setLive('live');
        cardsChanged();
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

  const polls = live === 'polling' || data.trade.role === 'moderator';
  useEffect(() => {
    if (!polls) return;
    const timer = setInterval(() => {
      cardsChanged();
      void refresh();
      void loadMessages();
      void refreshUploads();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [polls, refresh, loadMessages, refreshUploads, cardsChanged]);

  return live;
}
