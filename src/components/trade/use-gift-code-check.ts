import { useCallback, useEffect, useRef, useState } from 'react';
import { type ApiResult, apiGet, apiPost, apiRequest } from '../../lib/api-client.ts';
import type { GiftCardView, GiftCodeCheckView, TradeGiftCardView } from '../../lib/shared/views/gift-cards.ts';
import type { TradeView } from './trade-logic.ts';
import type { T } from './ui.tsx';

// The gift code check's state (spec section 3 "Gift-code check"): the check as the server answers
// it, read again whenever the trade or its cards change; the buyer's free cards that may be added;
// the card about to be removed and why removing failed (cardForRemove, removeError); the reveal of
// each code; giving the cards back; and the last notice. A code lives only in its card's view.

export interface GiftCheckNotice {
  kind: 'success' | 'error';
  text: string;
}

/** The buyer's free cards of the trade's brand and currency: what "add" offers. */
function addable(cards: readonly GiftCardView[], check: GiftCodeCheckView): GiftCardView[] {
  const { currency, paymentMethod } = check.tradeInfo;
  return cards.filter(
    (card) =>
      card.state === 'free' && card.paymentMethod.id === paymentMethod.id && card.fiatCurrency.id === currency.id,
  );
}

/** A revealed code into its card, so the card shows it before the check is read again. */
function withCode(check: GiftCodeCheckView, id: string, code: string, revealedAt: number): GiftCodeCheckView {
  // The seller's first reveal opens the card; a moderator's reading leaves its state as it was.
  const opened = (card: TradeGiftCardView) =>
    check.role === 'seller' && card.state === 'in_use' ? 'revealed' : card.state;
  const cards = check.cards.map(
    (card): TradeGiftCardView => (card.id === id ? { ...card, code, revealedAt, state: opened(card) } : card),
  );
  return { ...check, cards };
}

/** The check as shown: the server's first render, read again when the trade or its cards change. */
function useCheckData(base: string, initial: GiftCodeCheckView, version: number, tick: number) {
  const [check, setCheck] = useState(initial);
  const [free, setFree] = useState<GiftCardView[] | null>(null);
  const load = useCallback(async () => {
    const result = await apiGet<GiftCodeCheckView>(base);
    if (result.ok && result.data) setCheck(result.data);
  }, [base]);
  const loadFree = useCallback(async () => {
    const result = await apiGet<GiftCardView[]>('/rest/v1/gift-cards');
    if (result.ok && result.data) setFree(result.data);
  }, []);

  // A status event (a new trade version) or a cards event (the tick): not on the first render,
  // which the server rendered.
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version and tick are the triggers.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void load();
  }, [version, tick, load]);
  const canAdd = check.can.add;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the free cards change with the trade's.
  useEffect(() => {
    if (canAdd) void loadFree();
  }, [canAdd, check.cards.length, loadFree]);
  return { check, setCheck, free: free ? addable(free, check) : null, load };
}

type Send = <R>(
  key: string,
  request: () => Promise<ApiResult<R>>,
  onError?: (text: string) => void,
) => Promise<R | undefined>;

/** The card about to be removed, behind its confirmation (cardForRemove), and why removing failed (removeError). */
function useRemoval(base: string, send: Send, onRemoved: (next: GiftCodeCheckView) => void) {
  const [cardForRemove, setCardForRemove] = useState<TradeGiftCardView | null>(null);
  const [removeError, setRemoveError] = useState('');
  const askRemove = (card: TradeGiftCardView | null) => {
    setCardForRemove(card);
    setRemoveError('');
  };
  const remove = async () => {
    if (!cardForRemove) return;
    setRemoveError('');
    const url = `${base}/${cardForRemove.id}`;
    const next = await send('remove', () => apiRequest<GiftCodeCheckView>('DELETE', url), setRemoveError);
    if (!next) return;
    setCardForRemove(null);
    onRemoved(next);
  };
  return { cardForRemove, removeError, askRemove, remove };
}

export function useGiftCodeCheck(
  hash: string,
  initial: GiftCodeCheckView,
  { t, version, tick, onTrade }: { t: T; version: number; tick: number; onTrade(trade: TradeView): void },
) {
  const base = `/rest/v1/trade/${hash}/gift-cards`;
  const { check, setCheck, free, load } = useCheckData(base, initial, version, tick);
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<GiftCheckNotice | null>(null);
  const failed = (result: ApiResult<unknown>) => result.errors[0]?.message || t('trade.giftCards.failed');

  const done = (text: string) => setNotice({ kind: 'success', text });

  /** One request at a time (`busy` names it); its data, or undefined once its error is shown. */
  const send: Send = async (key, request, onError = (text) => setNotice({ kind: 'error', text })) => {
    setBusy(key);
    setNotice(null);
    const result = await request();
    setBusy(null);
    if (result.ok && result.data) return result.data;
    onError(failed(result));
    return undefined;
  };

  const add = async (ids: readonly string[]) => {
    const next = await send('add', () => apiPost<GiftCodeCheckView>(base, { gift_card_ids: ids }));
    if (next) {
      setCheck(next);
      done(t('trade.giftCards.added'));
    }
    return next !== undefined;
  };

  const reveal = async (id: string) => {
    const opened = await send(`reveal:${id}`, () =>
      apiPost<{ code: string; revealedAt: number }>(`${base}/${id}/reveal`),
    );
    if (opened) setCheck((shown) => withCode(shown, id, opened.code, opened.revealedAt));
  };

  /** Gives the cards back; the server answers with the cancelled trade. */
  const giveBack = async () => {
    const trade = await send('return', () => apiPost<TradeView>(`${base}/return`));
    if (!trade) return false;
    onTrade(trade);
    done(t('trade.giftCards.returned'));
    void load();
    return true;
  };

  const removal = useRemoval(base, send, (next) => {
    setCheck(next);
    done(t('trade.giftCards.removed'));
  });

  return {
    check,
    free,
    busy,
    notice,
    ...removal,
    add,
    reveal,
    giveBack,
  };
}

export type GiftCodeCheckState = ReturnType<typeof useGiftCodeCheck>;
