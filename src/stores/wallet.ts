import { map } from 'nanostores';
import {
  type ConversionAction,
  type ConversionState,
  conversionReducer,
  DIRECTIONS,
  initialConversion,
  newOrderId,
} from '../components/wallet/conversion.ts';
import {
  type ConversionDirection,
  type CryptoCode,
  entryKey,
  type HedgingSettings,
  type Quote,
  type WalletEntry,
  type WalletPage,
} from '../components/wallet/types.ts';
import { formatAmount } from '../components/wallet/ui.tsx';
import { apiGet, apiPost, NETWORK_ERROR_CODE } from '../lib/api-client.ts';
import { subscribeChannel } from '../lib/use-channel.ts';
import { reloadBalances } from './balances.ts';
import { onClientMount } from './client-mount.ts';
import { createQuoteStore } from './quote.ts';

// The wallet screen's state (spec sections 2 to 4): the ledger and its paging, which modal is
// open, the notice, and per direction the conversion's state and amount; the quote lives in its
// own store (quote.ts), the balances in the shared one (balances.ts). One store per island,
// created with what the server rendered. While the island listens (the browser), the person's
// `wallet:<usr_…>` channel says when balances changed: balances and the first ledger page reload.

export type ModalName = 'send' | 'receive' | ConversionDirection;

export interface WalletView {
  history: WalletPage;
  loadingMore: boolean;
  modal: ModalName | undefined;
  notice: string | undefined;
  conversions: Record<ConversionDirection, ConversionState>;
  amounts: Record<ConversionDirection, string>;
}

type Translate = (key: string, params?: Record<string, string | number>) => string;

export interface WalletInit {
  locale: string;
  lang: string;
  t: Translate;
  userId: string;
  settings: HedgingSettings;
  history: WalletPage;
  quote: Quote | undefined;
}

export const isConversion = (modal: ModalName | undefined): modal is ConversionDirection =>
  modal === 'toUsdt' || modal === 'toBtc';

export function createWallet(init: WalletInit) {
  const { locale, lang, t, settings } = init;
  const api = (path: string) => `${path}${path.includes('?') ? '&' : '?'}locale=${encodeURIComponent(locale)}`;
  const quotes = createQuoteStore(init.quote);
  const $view = map<WalletView>({
    history: init.history,
    loadingMore: false,
    modal: undefined,
    notice: undefined,
    conversions: { toUsdt: initialConversion, toBtc: initialConversion },
    amounts: { toUsdt: '', toBtc: '' },
  });
  const patch = (change: Partial<WalletView>) => $view.set({ ...$view.get(), ...change });
  const dispatch = (direction: ConversionDirection, action: ConversionAction) => {
    const { conversions } = $view.get();
    patch({ conversions: { ...conversions, [direction]: conversionReducer(conversions[direction], action) } });
  };
  const setAmount = (direction: ConversionDirection, value: string) =>
    patch({ amounts: { ...$view.get().amounts, [direction]: value } });

  /** The first page again; entries of later pages already shown stay below it. */
  const reloadHistory = async () => {
    const answer = await apiGet<WalletEntry[]>(api('/rest/v1/wallet/transactions?page=1'));
    if (!answer.ok || !answer.data) return;
    const first = answer.data;
    const keys = new Set(first.map(entryKey));
    const current = $view.get().history;
    // Entries already shown that page 1 no longer holds are older ones: they stay below it.
    patch({
      history: {
        items: [...first, ...current.items.filter((entry) => !keys.has(entryKey(entry)))],
        page: current.page,
        more: current.page === 1 ? Boolean(answer.meta?.nextPageExist) : current.more,
      },
    });
  };

  const reload = () => Promise.all([reloadBalances(locale), reloadHistory()]);

  const loadMore = async () => {
    patch({ loadingMore: true });
    const page = $view.get().history.page + 1;
    const answer = await apiGet<WalletEntry[]>(api(`/rest/v1/wallet/transactions?page=${page}`));
    patch({ loadingMore: false });
    if (!answer.ok || !answer.data) return;
    const items = answer.data;
    const current = $view.get().history;
    const keys = new Set(current.items.map(entryKey));
    patch({
      history: {
        items: [...current.items, ...items.filter((entry) => !keys.has(entryKey(entry)))],
        page,
        more: Boolean(answer.meta?.nextPageExist),
      },
    });
  };

  const open = (modal: ModalName) => patch({ notice: undefined, modal });

  /** Opening a conversion without a live quote asks for the current one. */
  const openConversion = (direction: ConversionDirection) => {
    open(direction);
    void quotes.ensureLive();
  };

  const closeModal = () => {
    const { modal } = $view.get();
    if (isConversion(modal)) dispatch(modal, { type: 'close' });
    patch({ modal: undefined });
  };

  /** A sendout went out: the modal closes, its message shows and the wallet reloads. */
  const sent = (message: string) => {
    patch({ modal: undefined, notice: message });
    void reload();
  };

  const convert = async (direction: ConversionDirection) => {
    const state = $view.get().conversions[direction];
    const { quote } = quotes.$quote.get();
    if (!quote || state.conversionStatus === 'posting') return;
    const { from, to } = DIRECTIONS[direction];
    // A pending conversion is retried with its order id, so it happens at most once.
    const orderId =
      state.conversionStatus === 'pending' && state.pendingConversion ? state.pendingConversion.orderId : newOrderId();
    dispatch(direction, { type: 'post', orderId, quote });
    const answer = await apiPost<{ currencyToCode: CryptoCode; amountTo: string }>(api('/rest/v1/hedging/convert'), {
      from_crypto_currency_code: from,
      to_crypto_currency_code: to,
      amount: $view.get().amounts[direction].trim(),
      quote_id: quote.id,
      order_id: orderId,
    });
    if (answer.ok && answer.data) {
      const received = formatAmount(answer.data.amountTo, answer.data.currencyToCode, lang);
      dispatch(direction, { type: 'success', toAmount: answer.data.amountTo });
      // Spec section 4: on success the amount received is shown and the modal closes.
      patch({
        notice: t('wallet.convert.success', { amount: received }),
        amounts: { ...$view.get().amounts, [direction]: '' },
        modal: undefined,
      });
      dispatch(direction, { type: 'close' });
      void reload();
      return;
    }
    const error = answer.errors[0];
    const code = error?.code === NETWORK_ERROR_CODE ? NETWORK_ERROR_CODE : (error?.code ?? 'UNKNOWN_ERROR');
    dispatch(direction, {
      type: 'failure',
      status: answer.status,
      code,
      message: error?.details?.[0]?.message ?? error?.message,
      retryableCodes: settings.retryableCodes,
    });
    // A retryable failure also reloads the balances (spec section 4).
    if (settings.retryableCodes.includes(code)) void reloadBalances(locale);
  };

  onClientMount($view, () =>
    subscribeChannel(
      `wallet:${init.userId}`,
      (event) => {
        if (event.type === 'balances') void reload();
      },
      // Events missed while the socket was away: read the state afresh.
      { onSubscribed: () => void reload() },
    ),
  );

  return {
    $view,
    $quote: quotes.$quote,
    api,
    loadMore,
    open,
    openConversion,
    closeModal,
    sent,
    convert,
    setAmount,
    clearError: (direction: ConversionDirection) => dispatch(direction, { type: 'clearError' }),
  };
}

export type WalletStore = ReturnType<typeof createWallet>;
