import type { CryptoCode, DepositAddress } from './types.ts';
import { Modal } from './ui.tsx';
import { useDepositAddress } from './use-deposit-address.ts';

// The receive (deposit) modal: a tab per currency (bitcoin; tether on TRC-20), the person's
// deposit address with a copy button and its QR code (an SVG the server renders), the network,
// and the warning to send only that coin on that network.

type T = (key: string, params?: Record<string, string | number>) => string;

const CURRENCIES: CryptoCode[] = ['BTC', 'USDT'];

export function ReceiveModal({ t, api, onClose }: { t: T; api(path: string): string; onClose(): void }) {
  const { currency, shown, failed, copied, copy, choose } = useDepositAddress(api);
  return (
    <Modal
      title={t('wallet.receive.title')}
      closeLabel={t('wallet.close')}
      onClose={onClose}
      className="wallet-receive"
    >
      <div className="wallet-tabs" role="tablist" aria-label={t('wallet.receive.currency')}>
        {CURRENCIES.map((code) => (
          <button
            key={code}
            type="button"
            role="tab"
            id={`receive-tab-${code}`}
            aria-selected={currency === code}
            aria-controls="receive-panel"
            className="wallet-tab"
            onClick={() => choose(code)}
          >
            {t(code === 'BTC' ? 'wallet.bitcoin' : 'wallet.tether')}
            <span className="muted"> {code === 'BTC' ? 'BTC' : 'USDT · TRC-20'}</span>
          </button>
        ))}
      </div>
      <div
        id="receive-panel"
        role="tabpanel"
        aria-labelledby={`receive-tab-${currency}`}
        className="wallet-receive-panel"
      >
        {shown ? (
          <DepositDetails t={t} currency={currency} shown={shown} copied={copied} onCopy={() => void copy()} />
        ) : failed ? (
          <p className="alert alert-error" role="alert">
            {t('wallet.genericError')}
          </p>
        ) : (
          <p className="muted">{t('wallet.loading')}</p>
        )}
      </div>
    </Modal>
  );
}

function DepositDetails({
  t,
  currency,
  shown,
  copied,
  onCopy,
}: {
  t: T;
  currency: CryptoCode;
  shown: DepositAddress;
  copied: boolean;
  onCopy(): void;
}) {
  return (
    <>
      <div
        className="wallet-qr"
        role="img"
        aria-label={t('wallet.receive.qr')}
        // The server renders this SVG from the address (uqr); it carries no script.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: our own API's SVG of the address
        dangerouslySetInnerHTML={{ __html: shown.qrSvg }}
      />
      <p className="field-label">{t('wallet.receive.address')}</p>
      <div className="wallet-address-row">
        <code id="receive-address" className="wallet-address wallet-mono" data-address>
          {shown.address}
        </code>
        <button type="button" className="btn btn-secondary" onClick={onCopy}>
          {copied ? t('wallet.receive.copied') : t('wallet.receive.copy')}
        </button>
      </div>
      <p>
        {t('wallet.receive.network', { network: t(`wallet.network.${shown.network}`) })}
        {' · '}
        {t('wallet.receive.confirmations', { count: shown.requiredConfirmations })}
      </p>
      <p className="alert alert-info" data-warning>
        {t(currency === 'BTC' ? 'wallet.receive.warningBtc' : 'wallet.receive.warningUsdt')}
      </p>
    </>
  );
}
