import { useCallback, useRef, useState } from 'react';
import { apiGet } from '../../lib/api-client.ts';
import { fresher, mergeMessages, type TradeMessageView, type TradeUploadView, type TradeView } from './trade-logic.ts';

// The trade page's data: the trade, its chat lines, its uploads (and a gift-card trade's cards' tick), first as the server rendered
// them, then reloaded from the API (a late, older trade never replaces a newer one; chat lines
// merge by id).

export interface TradeDataInitial {
  trade: TradeView;
  chat: TradeMessageView[];
  uploads: TradeUploadView[];
}

export function useTradeData(initial: TradeDataInitial) {
  const hash = initial.trade.hash;
  const [trade, setTrade] = useState(initial.trade);
  const [chat, setChat] = useState(initial.chat);
  const [uploads, setUploads] = useState(initial.uploads);
  // Bumped when the trade's gift cards may have changed (their event, a resubscription, a poll).
  const [cardsTick, setCardsTick] = useState(0);
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
  // Spec section 4: a `paid` event marks the trade paid before the reload answers.
  const markPaid = () => setTrade((shown) => ({ ...shown, status: 'paid', isPaid: true }));
  const cardsChanged = useCallback(() => setCardsTick((tick) => tick + 1), []);

  return {
    trade,
    chat,
    uploads,
    setUploads,
    replace,
    refresh,
    refreshUploads,
    loadMessages,
    addMessages,
    markPaid,
    cardsTick,
    cardsChanged,
  };
}

export type TradeData = ReturnType<typeof useTradeData>;
