import { useEffect, useState } from 'react';
import { apiGet } from '../../lib/api-client.ts';
import type { CryptoCode, DepositAddress } from './types.ts';

// The receive modal's state: the chosen currency, the deposit addresses fetched so far (one
// request per currency, when its tab is first shown), a failed fetch, and "copied".

export function useDepositAddress(api: (path: string) => string) {
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

  const choose = (code: CryptoCode) => {
    setCurrency(code);
    setCopied(false);
  };

  return { currency, shown, failed, copied, copy, choose };
}
