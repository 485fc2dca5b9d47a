import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { useSeededStore } from '../../lib/use-seeded-store.ts';
import { $balances, withDefaults } from '../../stores/balances.ts';
import { $currentUser } from '../../stores/current-user.ts';
import { $narrow } from '../../stores/viewport.ts';
import { createWallet, isConversion, type WalletStore } from '../../stores/wallet.ts';
import { AccountBalances } from './AccountBalances.tsx';
import { ConvertModal } from './ConvertModal.tsx';
import { LedgerTable } from './LedgerTable.tsx';
import { ProofPanel } from './ProofPanel.tsx';
import { ReceiveModal } from './ReceiveModal.tsx';
import { SendModal } from './SendModal.tsx';
import type { HedgingSettings, WalletBalance, WalletProps, WalletUser } from './types.ts';

// The wallet screen (spec section 2): a card per currency (always BTC and USDT, spec section 9)
// with what is incoming, the actions (send, receive, convert each way), the ledger with paging,
// and the send, receive and conversion modals; a merchant's and a kiosk's other balance beside it;
// under the ledger, the check of the person's proof of liabilities (ProofPanel). The first render comes from the server; in the
// browser the island's store (src/stores/wallet.ts, with the quote of src/stores/quote.ts) and
// the shared balances and current user follow the person's wallet channel and the quotes. This
// component renders them and hands events to the store's actions.

/** Hydration reads a store's first value, the server's, whatever its mount changed since. */
const HYDRATE = { ssr: 'initial' } as const;

type T = (key: string, params?: Record<string, string | number>) => string;

export default function WalletApp(props: WalletProps) {
  const { lang, settings } = props;
  const [{ t, wallet }] = useState(() => {
    const t = islandTranslator(props.messages);
    const wallet = createWallet({ ...props, t, userId: props.user.id, quote: props.quote });
    return { t, wallet };
  });
  const user = useSeededStore($currentUser, props.user);
  const balances = useSeededStore($balances, withDefaults(props.balances));
  const { history, loadingMore, notice } = useStore(wallet.$view, HYDRATE);

  return (
    <div className="wallet-app">
      <p className="alert alert-success wallet-notice" role="status">
        {notice}
      </p>

      <section className="wallet-summary" data-tour="balance" aria-label={t('wallet.balances')}>
        <div className="wallet-cards">
          <BalanceCard t={t} lang={lang} balance={balances[0] as WalletBalance} />
          <BalanceCard t={t} lang={lang} balance={balances[1] as WalletBalance} />
        </div>
        <WalletActions t={t} wallet={wallet} settings={settings} />
      </section>

      <AccountBalances
        t={t}
        lang={lang}
        locale={props.locale}
        merchant={props.merchant}
        kiosk={props.kiosk}
        kioskLink={props.kioskLink}
        onSettled={() => void wallet.reload()}
      />

      <LedgerTable
        t={t}
        lang={lang}
        history={history}
        loadingMore={loadingMore}
        onMore={() => void wallet.loadMore()}
        onDeposit={() => wallet.open('receive')}
      />

      <ProofPanel
        t={t}
        lang={lang}
        locale={props.locale}
        userId={props.user.id}
        published={props.proof}
        proofPageLink={props.proofPageLink}
      />

      <WalletModals t={t} props={props} wallet={wallet} user={user} balances={balances} />
    </div>
  );
}

function BalanceCard({ t, lang, balance }: { t: T; lang: string; balance: WalletBalance }) {
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
        {t(code === 'BTC' ? 'wallet.bitcoin' : 'wallet.tether')}
      </h2>
      <p className="wallet-balance" data-balance>
        {formatCryptoAmount(balance.balance, code, lang)}
      </p>
      <p className={`wallet-incoming${incoming ? '' : ' muted'}`} data-incoming>
        {incoming
          ? t('wallet.incoming', { amount: formatCryptoAmount(balance.incoming, code, lang) })
          : t('wallet.noIncoming')}
      </p>
    </article>
  );
}

function WalletActions({ t, wallet, settings }: { t: T; wallet: WalletStore; settings: HedgingSettings }) {
  const narrow = useStore($narrow, HYDRATE);
  return (
    <div className="wallet-actions">
      <button type="button" className="btn btn-primary" data-tour="send" onClick={() => wallet.open('send')}>
        {t('wallet.action.send')}
      </button>
      <button
        type="button"
        className="btn btn-secondary"
        data-tour={narrow ? undefined : 'deposit'}
        onClick={() => wallet.open('receive')}
      >
        {t('wallet.action.receive')}
      </button>
      {settings.enabled && (
        <>
          <button
            type="button"
            className="btn btn-secondary"
            data-tour={narrow ? undefined : 'convert-to-tether'}
            onClick={() => wallet.openConversion('toUsdt')}
          >
            {t('wallet.convertToTether')}
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            data-tour="convert-to-btc"
            onClick={() => wallet.openConversion('toBtc')}
          >
            {t('wallet.convertToBitcoin')}
          </button>
        </>
      )}
    </div>
  );
}

function WalletModals({
  t,
  props,
  wallet,
  user,
  balances,
}: {
  t: T;
  props: WalletProps;
  wallet: WalletStore;
  user: WalletUser;
  balances: WalletBalance[];
}) {
  const { lang, settings } = props;
  const { modal, conversions, amounts } = useStore(wallet.$view, HYDRATE);
  const { quote, obsolete, subscribeError } = useStore(wallet.$quote, HYDRATE);
  return (
    <>
      {modal === 'send' && (
        <SendModal
          t={t}
          lang={lang}
          api={wallet.api}
          user={user}
          balances={balances}
          networks={props.networks}
          onClose={wallet.closeModal}
          onSent={wallet.sent}
        />
      )}
      {modal === 'receive' && <ReceiveModal t={t} api={wallet.api} onClose={wallet.closeModal} />}
      {isConversion(modal) && (
        <ConvertModal
          key={modal}
          t={t}
          lang={lang}
          direction={modal}
          state={conversions[modal]}
          balance={(balances[modal === 'toUsdt' ? 0 : 1] as WalletBalance).balance}
          amount={amounts[modal]}
          onAmount={(value) => wallet.setAmount(modal, value)}
          quote={quote}
          obsolete={obsolete}
          subscribeError={subscribeError}
          settings={settings}
          isIdVerified={user.isIdVerified}
          verificationHref={props.verificationLink}
          onConvert={() => void wallet.convert(modal)}
          onClearError={() => wallet.clearError(modal)}
          onClose={wallet.closeModal}
        />
      )}
    </>
  );
}
