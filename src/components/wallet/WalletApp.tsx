import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { apiGet, apiPost, NETWORK_ERROR_CODE } from '../../lib/api-client.ts';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { type RealtimeEvent, useChannel } from '../../lib/use-channel.ts';
import { ConvertModal } from './ConvertModal.tsx';
import { conversionReducer, DIRECTIONS, initialConversion, newOrderId, quoteIsLive } from './conversion.ts';
import { entryKey, LedgerTable } from './LedgerTable.tsx';
import { ReceiveModal } from './ReceiveModal.tsx';
import { SendModal } from './SendModal.tsx';
import type {
  ConversionDirection,
  CryptoCode,
  Quote,
  WalletBalance,
  WalletEntry,
  WalletPage,
  WalletProps,
} from './types.ts';
import { formatAmount } from './ui.tsx';

// The wallet screen (spec section 2): a card per currency (always BTC and USDT, spec section 9)
// with what is incoming, the actions (send, receive, convert each way), the ledger with paging,
// and the send, receive and conversion modals. The first render comes from the server; the
// personal `wallet:<usr_…>` channel says when balances changed, the public `quotes` channel
// brings a conversion quote every price tick.

type ModalName = 'send' | 'receive' | ConversionDirection;

/** The realtime quote's snake case, or undefined when the payload is not a quote. */
function quoteOf(payload: unknown): Quote | undefined {
  const q = payload as {
    id?: unknown;
    expired_timestamp?: unknown;
    service_price_ask?: unknown;
    service_price_bid?: unknown;
  };
  if (typeof q?.id !== 'string' || typeof q.expired_timestamp !== 'number') return undefined;
  if (typeof q.service_price_ask !== 'number' || typeof q.service_price_bid !== 'number') return undefined;
  return { id: q.id, expiredTimestamp: q.expired_timestamp, ask: q.service_price_ask, bid: q.service_price_bid };
}

/** Both currencies, zero for a missing one (spec section 9). */
function withDefaults(balances: readonly WalletBalance[]): WalletBalance[] {
  return (['BTC', 'USDT'] as const).map(
    (code) =>
      balances.find((b) => b.cryptoCurrencyCode === code) ?? {
        cryptoCurrencyCode: code,
        balance: code === 'BTC' ? '0.00000000' : '0.000000',
        incoming: code === 'BTC' ? '0.00000000' : '0.000000',
      },
  );
}

/** Phones (below the 768 px breakpoint) leave some tour steps out. */
function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const query = matchMedia('(max-width: 767.98px)');
    const update = () => setNarrow(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return narrow;
}

export default function WalletApp(props: WalletProps) {
  const { locale, lang, user, settings } = props;
  const t = useMemo(() => islandTranslator(props.messages), [props.messages]);
  const api = useCallback(
    (path: string) => `${path}${path.includes('?') ? '&' : '?'}locale=${encodeURIComponent(locale)}`,
    [locale],
  );
  const narrow = useNarrow();

  const [balances, setBalances] = useState(() => withDefaults(props.balances));
  const [history, setHistory] = useState<WalletPage>(props.history);
  const [loadingMore, setLoadingMore] = useState(false);
  const [modal, setModal] = useState<ModalName | undefined>();
  const [notice, setNotice] = useState<string | undefined>();

  // The quote and the wallet flags of spec section 3: obsolete rate and subscribe error.
  const [quote, setQuote] = useState<Quote | undefined>(props.quote);
  const [obsolete, setObsolete] = useState(() => props.quote !== undefined && !quoteIsLive(props.quote, Date.now()));
  const [subscribeError, setSubscribeError] = useState(false);
  const [now, setNow] = useState(() => Date.now());

  const [toUsdt, dispatchToUsdt] = useReducer(conversionReducer, initialConversion);
  const [toBtc, dispatchToBtc] = useReducer(conversionReducer, initialConversion);
  const conversions = { toUsdt, toBtc };
  const dispatchers = { toUsdt: dispatchToUsdt, toBtc: dispatchToBtc };
  const [amounts, setAmounts] = useState<Record<ConversionDirection, string>>({ toUsdt: '', toBtc: '' });

  const reloadBalances = useCallback(async () => {
    const answer = await apiGet<WalletBalance[]>(api('/rest/v1/balances'));
    if (answer.ok && answer.data) setBalances(withDefaults(answer.data));
  }, [api]);

  /** The first page again; entries of later pages already shown stay below it. */
  const reloadHistory = useCallback(async () => {
    const answer = await apiGet<WalletEntry[]>(api('/rest/v1/wallet/transactions?page=1'));
    if (!answer.ok || !answer.data) return;
    const first = answer.data;
    const keys = new Set(first.map(entryKey));
    // Entries already shown that page 1 no longer holds are older ones: they stay below it.
    setHistory((current) => ({
      items: [...first, ...current.items.filter((entry) => !keys.has(entryKey(entry)))],
      page: current.page,
      more: current.page === 1 ? Boolean(answer.meta?.nextPageExist) : current.more,
    }));
  }, [api]);

  const reload = useCallback(() => Promise.all([reloadBalances(), reloadHistory()]), [reloadBalances, reloadHistory]);

  const loadMore = async () => {
    setLoadingMore(true);
    const page = history.page + 1;
    const answer = await apiGet<WalletEntry[]>(api(`/rest/v1/wallet/transactions?page=${page}`));
    setLoadingMore(false);
    if (!answer.ok || !answer.data) return;
    const items = answer.data;
    setHistory((current) => {
      const keys = new Set(current.items.map(entryKey));
      return {
        items: [...current.items, ...items.filter((entry) => !keys.has(entryKey(entry)))],
        page,
        more: Boolean(answer.meta?.nextPageExist),
      };
    });
  };

  useChannel(
    `wallet:${user.id}`,
    (event: RealtimeEvent) => {
      if (event.type === 'balances') void reload();
    },
    // Events missed while the socket was away: read the state afresh.
    { onSubscribed: () => void reload() },
  );

  const receiveQuote = useCallback((next: Quote) => {
    // Spec section 4: a quote that arrives expired marks the rate obsolete.
    if (!quoteIsLive(next, Date.now())) {
      setObsolete(true);
      return;
    }
    setQuote(next);
    setObsolete(false);
  }, []);

  useChannel(
    'quotes',
    (event) => {
      const next = event.type === 'quote' ? quoteOf(event.payload) : undefined;
      if (next) receiveQuote(next);
    },
    { onSubscribed: () => setSubscribeError(false), onFailed: () => setSubscribeError(true) },
  );

  // At its expiry second the quote becomes obsolete until the next one arrives.
  useEffect(() => {
    if (!quote) return;
    const left = quote.expiredTimestamp * 1000 - Date.now();
    if (left <= 0) {
      setObsolete(true);
      return;
    }
    const timer = setTimeout(() => setObsolete(true), left);
    return () => clearTimeout(timer);
  }, [quote]);

  // The countdown ticks only while a conversion modal is open.
  const converting = modal === 'toUsdt' || modal === 'toBtc';
  useEffect(() => {
    if (!converting) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [converting]);

  /** Opening a conversion without a quote asks for the current one (crypto-fiat-rates). */
  const openConversion = async (direction: ConversionDirection) => {
    setNotice(undefined);
    setModal(direction);
    if (quoteIsLive(quote, Date.now())) return;
    const answer = await apiGet<{
      quoteId: string | null;
      expiredTimestamp: number | null;
      servicePriceAsk: number | null;
      servicePriceBid: number | null;
    }>('/rest/v1/crypto-fiat-rates?camelCase=1');
    const d = answer.data;
    if (d?.quoteId && d.expiredTimestamp && d.servicePriceAsk && d.servicePriceBid) {
      receiveQuote({
        id: d.quoteId,
        expiredTimestamp: d.expiredTimestamp,
        ask: d.servicePriceAsk,
        bid: d.servicePriceBid,
      });
    }
  };

  const convert = async (direction: ConversionDirection) => {
    const dispatch = dispatchers[direction];
    const state = conversions[direction];
    if (!quote || state.conversionStatus === 'posting') return;
    const { from, to } = DIRECTIONS[direction];
    // A pending conversion is retried with its order id, so it happens at most once.
    const orderId =
      state.conversionStatus === 'pending' && state.pendingConversion ? state.pendingConversion.orderId : newOrderId();
    dispatch({ type: 'post', orderId, quote });
    const answer = await apiPost<{ currencyToCode: CryptoCode; amountTo: string }>(api('/rest/v1/hedging/convert'), {
      from_crypto_currency_code: from,
      to_crypto_currency_code: to,
      amount: amounts[direction].trim(),
      quote_id: quote.id,
      order_id: orderId,
    });
    if (answer.ok && answer.data) {
      const received = formatAmount(answer.data.amountTo, answer.data.currencyToCode, lang);
      dispatch({ type: 'success', toAmount: answer.data.amountTo });
      // Spec section 4: on success the amount received is shown and the modal closes.
      setNotice(t('wallet.convert.success', { amount: received }));
      setAmounts((current) => ({ ...current, [direction]: '' }));
      setModal(undefined);
      dispatch({ type: 'close' });
      void reload();
      return;
    }
    const error = answer.errors[0];
    const code = error?.code === NETWORK_ERROR_CODE ? NETWORK_ERROR_CODE : (error?.code ?? 'UNKNOWN_ERROR');
    const retryable = settings.retryableCodes.includes(code);
    dispatch({
      type: 'failure',
      status: answer.status,
      code,
      message: error?.details?.[0]?.message ?? error?.message,
      retryableCodes: settings.retryableCodes,
    });
    // A retryable failure also reloads the balances (spec section 4).
    if (retryable) void reloadBalances();
  };

  const closeModal = () => {
    if (modal === 'toUsdt' || modal === 'toBtc') dispatchers[modal]({ type: 'close' });
    setModal(undefined);
  };

  const btc = balances[0] as WalletBalance;
  const usdt = balances[1] as WalletBalance;
  const currencyName = (code: CryptoCode) => t(code === 'BTC' ? 'wallet.bitcoin' : 'wallet.tether');

  const card = (balance: WalletBalance) => {
    const code = balance.cryptoCurrencyCode;
    const incoming = Number(balance.incoming) > 0;
    return (
      <article
        className={`card wallet-card wallet-card-${code.toLowerCase()}`}
        data-tour={code === 'BTC' ? 'btc-balance' : 'tether-balance'}
        data-currency={code}
        aria-labelledby={`wallet-${code}-title`}
      >
        <h2 className="wallet-card-title" id={`wallet-${code}-title`}>
          <span className={`wallet-coin wallet-coin-${code.toLowerCase()}`} aria-hidden="true">
            {code === 'BTC' ? 'B' : 'T'}
          </span>
          {currencyName(code)}
        </h2>
        <p className="wallet-balance" data-balance>
          {formatAmount(balance.balance, code, lang)}
        </p>
        <p className={`wallet-incoming${incoming ? '' : ' muted'}`} data-incoming>
          {incoming
            ? t('wallet.incoming', { amount: formatAmount(balance.incoming, code, lang) })
            : t('wallet.noIncoming')}
        </p>
      </article>
    );
  };

  return (
    <div className="wallet-app">
      <p className="alert alert-success wallet-notice" role="status">
        {notice}
      </p>

      <section className="wallet-summary" data-tour="balance" aria-label={t('wallet.balances')}>
        <div className="wallet-cards">
          {card(btc)}
          {card(usdt)}
        </div>
        <div className="wallet-actions">
          <button
            type="button"
            className="btn btn-primary"
            data-tour="send"
            onClick={() => {
              setNotice(undefined);
              setModal('send');
            }}
          >
            {t('wallet.action.send')}
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            data-tour={narrow ? undefined : 'deposit'}
            onClick={() => {
              setNotice(undefined);
              setModal('receive');
            }}
          >
            {t('wallet.action.receive')}
          </button>
          {settings.enabled && (
            <>
              <button
                type="button"
                className="btn btn-secondary"
                data-tour={narrow ? undefined : 'convert-to-tether'}
                onClick={() => void openConversion('toUsdt')}
              >
                {t('wallet.convertToTether')}
              </button>
              <button
                type="button"
                className="btn btn-secondary"
                data-tour="convert-to-btc"
                onClick={() => void openConversion('toBtc')}
              >
                {t('wallet.convertToBitcoin')}
              </button>
            </>
          )}
        </div>
      </section>

      <LedgerTable t={t} lang={lang} history={history} loadingMore={loadingMore} onMore={() => void loadMore()} />

      {modal === 'send' && (
        <SendModal
          t={t}
          lang={lang}
          api={api}
          user={user}
          balances={balances}
          networks={props.networks}
          onClose={() => setModal(undefined)}
          onSent={(message) => {
            setModal(undefined);
            setNotice(message);
            void reload();
          }}
        />
      )}
      {modal === 'receive' && <ReceiveModal t={t} api={api} onClose={() => setModal(undefined)} />}
      {(modal === 'toUsdt' || modal === 'toBtc') && (
        <ConvertModal
          key={modal}
          t={t}
          lang={lang}
          direction={modal}
          state={conversions[modal]}
          balance={(modal === 'toUsdt' ? btc : usdt).balance}
          amount={amounts[modal]}
          onAmount={(value) => setAmounts((current) => ({ ...current, [modal]: value }))}
          quote={quote}
          obsolete={obsolete}
          subscribeError={subscribeError}
          settings={settings}
          isIdVerified={user.isIdVerified}
          now={now}
          onConvert={() => void convert(modal)}
          onClearError={() => dispatchers[modal]({ type: 'clearError' })}
          onClose={closeModal}
        />
      )}
    </div>
  );
}
