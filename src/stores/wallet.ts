import { type MapStore, map } from 'nanostores';
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
import { type ApiError, apiGet, apiPost, NETWORK_ERROR_CODE } from '../lib/api-client.ts';
import { formatCryptoAmount } from '../lib/shared/format-crypto.ts';
import { subscribeChannel } from '../lib/use-channel.ts';
import { reloadBalances } from './balances.ts';
import { onClientMount } from './client-mount.ts';
import { createQuoteStore } from './quote.ts';

type QuoteStore = ReturnType<typeof createQuoteStore>;

// The wallet screen's state (spec sections 2 to 4): the ledger and its paging, which modal is
// open, the notice, and per direction the conversion's state and amount; the quote lives in its
// own store (quote.ts), the balances in the shared one (balances.ts). One store per island,
// created with what the server rendered. While the island listens (the browser), the person's
// `wallet:<usr_…>` channel says when balances changed: balances and the ledger pages shown reload.

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

type View = MapStore<WalletView>;
type Api = (path: string) => string;

/** The view's store and its small writers: a partial update, a direction's conversion action. */
function createView(init: WalletInit) {
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
  return { $view, patch, dispatch, setAmount };
}

type ViewParts = ReturnType<typeof createView>;

/** Entries of `later` whose keys `earlier` lacks, after `earlier`. */
const merged = (earlier: WalletEntry[], later: WalletEntry[]) => {
  const keys = new Set(earlier.map(entryKey));
  return [...earlier, ...later.filter((entry) => !keys.has(entryKey(entry)))];
};

/**
 * Runs history reads one after another, so a reload and a "more" never interleave their pages;
 * a reload asked for while another waits to start is that one (events come in bursts).
 */
function serialReads() {
  let queue: Promise<unknown> = Promise.resolve();
  let waitingReload: Promise<void> | undefined;
  const serial = (work: () => Promise<void>) => {
    const run = queue.then(work, work);
    queue = run;
    return run;
  };
  const reload = (work: () => Promise<void>) => {
    waitingReload ??= serial(() => {
      waitingReload = undefined;
      return work();
    });
    return waitingReload;
  };
  return { serial, reload };
}

/**
 * The ledger's paging: the pages shown again (on a change) and the next page ("more"). A change
 * re-reads every page shown instead of keeping the old rows below a fresh page 1: a row the server
 * no longer lists must go. A deposit seen on the chain is listed as an `incoming` row under the
 * chain transaction's id until it is credited, then as the credit's ledger row under another id;
 * kept, the old row stayed as a stale duplicate (issue 22).
 */
function historyActions({ $view, patch }: ViewParts, api: Api) {
  const reads = serialReads();
  const readPage = (page: number) => apiGet<WalletEntry[]>(api(`/rest/v1/wallet/transactions?page=${page}`));

  const reloadHistory = () =>
    reads.reload(async () => {
      const { page } = $view.get().history;
      const answers = await Promise.all(Array.from({ length: page }, (_, i) => readPage(i + 1)));
      if (answers.some((answer) => !answer.ok || !answer.data)) return;
      // A row that moved down a page between two reads is listed once.
      const items = answers.reduce<WalletEntry[]>((rows, answer) => merged(rows, answer.data ?? []), []);
      patch({ history: { items, page, more: Boolean(answers.at(-1)?.meta?.nextPageExist) } });
    });

  const loadMore = () =>
    reads.serial(async () => {
      patch({ loadingMore: true });
      const page = $view.get().history.page + 1;
      const answer = await readPage(page);
      patch({ loadingMore: false });
      if (!answer.ok || !answer.data) return;
      patch({
        history: {
          items: merged($view.get().history.items, answer.data),
          page,
          more: Boolean(answer.meta?.nextPageExist),
        },
      });
    });
  return { reloadHistory, loadMore };
}

/** Which modal is open, and the notice of a sendout that went out. */
function modalActions({ $view, patch, dispatch }: ViewParts, quotes: QuoteStore, reload: () => Promise<unknown>) {
  const open = (modal: ModalName) => patch({ notice: undefined, modal });
  return {
    open,
    /** Opening a conversion without a live quote asks for the current one. */
    openConversion: (direction: ConversionDirection) => {
      open(direction);
      void quotes.ensureLive();
    },
    closeModal: () => {
      const { modal } = $view.get();
      if (isConversion(modal)) dispatch(modal, { type: 'close' });
      patch({ modal: undefined });
    },
    /** A sendout went out: the modal closes, its message shows and the wallet reloads. */
    sent: (message: string) => {
      patch({ modal: undefined, notice: message });
      void reload();
    },
  };
}

/** A conversion answer: success closes the modal with a notice; a failure goes to the state. */
function conversionOutcome(
  { $view, patch, dispatch }: ViewParts,
  { init, reload }: { init: WalletInit; reload: () => Promise<unknown> },
) {
  const succeeded = (direction: ConversionDirection, data: { currencyToCode: CryptoCode; amountTo: string }) => {
    const received = formatCryptoAmount(data.amountTo, data.currencyToCode, init.lang);
    dispatch(direction, { type: 'success', toAmount: data.amountTo });
    // Spec section 4: on success the amount received is shown and the modal closes.
    patch({
      notice: init.t('wallet.convert.success', { amount: received }),
      amounts: { ...$view.get().amounts, [direction]: '' },
      modal: undefined,
    });
    dispatch(direction, { type: 'close' });
    void reload();
  };
  const failed = (direction: ConversionDirection, status: number, error: ApiError | undefined) => {
    const { retryableCodes } = init.settings;
    const code = error?.code === NETWORK_ERROR_CODE ? NETWORK_ERROR_CODE : (error?.code ?? 'UNKNOWN_ERROR');
    dispatch(direction, {
      type: 'failure',
      status,
      code,
      message: error?.details?.[0]?.message ?? error?.message,
      retryableCodes,
    });
    // A retryable failure also reloads the balances (spec section 4).
    if (retryableCodes.includes(code)) void reloadBalances(init.locale);
  };
  return { succeeded, failed };
}

/** Posting a conversion of one direction at the live quote. */
function convertAction(
  parts: ViewParts,
  { init, api, quotes, reload }: { init: WalletInit; api: Api; quotes: QuoteStore; reload: () => Promise<unknown> },
) {
  const { succeeded, failed } = conversionOutcome(parts, { init, reload });
  return async (direction: ConversionDirection) => {
    const state = parts.$view.get().conversions[direction];
    const { quote } = quotes.$quote.get();
    if (!quote || state.conversionStatus === 'posting') return;
    const { from, to } = DIRECTIONS[direction];
    // A pending conversion is retried with its order id, so it happens at most once.
    const orderId =
      state.conversionStatus === 'pending' && state.pendingConversion ? state.pendingConversion.orderId : newOrderId();
    parts.dispatch(direction, { type: 'post', orderId, quote });
    const answer = await apiPost<{ currencyToCode: CryptoCode; amountTo: string }>(api('/rest/v1/hedging/convert'), {
      from_crypto_currency_code: from,
      to_crypto_currency_code: to,
      amount: parts.$view.get().amounts[direction].trim(),
      quote_id: quote.id,
      order_id: orderId,
    });
    if (answer.ok && answer.data) succeeded(direction, answer.data);
    else failed(direction, answer.status, answer.errors[0]);
  };
}

/** While the island listens, the person's wallet channel: a balances event reloads. */
function followWalletChannel($view: View, userId: string, reload: () => Promise<unknown>) {
  onClientMount($view, () =>
    subscribeChannel(
      `wallet:${userId}`,
      (event) => {
        if (event.type === 'balances') void reload();
      },
      // Events missed while the socket was away: read the state afresh.
      { onSubscribed: () => void reload() },
    ),
  );
}

export function createWallet(init: WalletInit) {
  const { locale } = init;
  const api = (path: string) => `${path}${path.includes('?') ? '&' : '?'}locale=${encodeURIComponent(locale)}`;
  const quotes = createQuoteStore(init.quote);
  const parts = createView(init);
  const { reloadHistory, loadMore } = historyActions(parts, api);
  const reload = () => Promise.all([reloadBalances(locale), reloadHistory()]);
  followWalletChannel(parts.$view, init.userId, reload);
  return {
    $view: parts.$view,
    $quote: quotes.$quote,
    api,
    loadMore,
    /** Balances and the ledger pages shown again (after a move into the wallet from another balance). */
    reload,
    ...modalActions(parts, quotes, reload),
    convert: convertAction(parts, { init, api, quotes, reload }),
    setAmount: parts.setAmount,
    clearError: (direction: ConversionDirection) => parts.dispatch(direction, { type: 'clearError' }),
  };
}

export type WalletStore = ReturnType<typeof createWallet>;
