import { useEffect, useState } from 'react';
import { apiGet } from '../../lib/api-client.ts';
import type { CryptoCode, DepositAddress } from './types.ts';
import { Modal } from './ui.tsx';

// The receive (deposit) modal: a tab per currency (bitcoin; tether on TRC-20), the person's
// deposit address with a copy button and its QR code (an SVG the server renders), the network,
// and the warning to send only that coin on that network.

type T = (key: string, params?: Record<string, string | number>) => string;

const CURRENCIES: CryptoCode[] = ['BTC', 'USDT'];

export function ReceiveModal({ t, api, onClose }: { t: T; api(path: string): string; onClose(): void }) {
  const [currency, setCurrency] = useState<CryptoCode>('BTC');
  const [addresses, setAddresses] = useState<Partial<Record<CryptoCode, DepositAddress>>>({});
  const [failed, setFailed] = useState(false);
  const [copied, setCopied] = useState(false);
  const shown = addresses[currency];

  useEffect(() => {
    if (addresses[currency]) return;
    let current = true;
    setFailed(false);
    void apiGet<DepositAddress>(api(`/rest/v1/wallet/deposit-address?currency=${currency}`)).then((answer) => {
      if (!current) return;
      if (answer.ok && answer.data) {
        const data = answer.data;
        setAddresses((known) => ({ ...known, [currency]: data }));
      } else setFailed(true);
    });
    return () => {
      current = false;
    };
  }, [currency, addresses, api]);

  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown.address);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // No clipboard (an insecure origin): the address stays selectable.
      document.getSelection()?.selectAllChildren(document.getElementById('receive-address') as HTMLElement);
    }
  };

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
            onClick={() => {
              setCurrency(code);
              setCopied(false);
            }}
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
              <button type="button" className="btn btn-secondary" onClick={() => void copy()}>
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
