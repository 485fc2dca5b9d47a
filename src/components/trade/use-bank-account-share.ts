import { useEffect, useState } from 'react';
import { apiGet, apiPost } from '../../lib/api-client.ts';
import type { BankAccountView, TradeBankAccountView } from '../../lib/shared/views/bank-accounts.ts';
import { type ShareChoice, shareChoices } from './bank-details.ts';
import type { T } from './ui.tsx';

// The seller's "share bank details" (docs/bank-accounts.md, "In a trade"): their saved accounts,
// read once the chooser shows; the one picked (the first in the trade's currency unless they
// pick another); and the share, after which the trade is read again (the other page hears the
// `bank_account` event and does the same).

export type SharePhase = 'loading' | 'failed' | 'ready' | 'sharing';

export function useBankAccountShare({
  hash,
  currency,
  t,
  onShared,
}: {
  hash: string;
  currency: string;
  t: T;
  onShared(): void;
}) {
  const [choices, setChoices] = useState<ShareChoice[]>([]);
  const [phase, setPhase] = useState<SharePhase>('loading');
  const [picked, setPicked] = useState('');
  const [error, setError] = useState('');
  const [shared, setShared] = useState(false);

  useEffect(() => {
    let current = true;
    void apiGet<BankAccountView[]>('/rest/v1/bankaccounts').then((result) => {
      if (!current) return;
      if (!result.ok || !result.data) {
        setPhase('failed');
        return;
      }
      const list = shareChoices(result.data, currency);
      setChoices(list);
      setPicked((shown) => shown || (list.find((c) => c.matches)?.account.id ?? ''));
      setPhase('ready');
    });
    return () => {
      current = false;
    };
  }, [currency]);

  const share = async () => {
    if (!picked) return;
    setPhase('sharing');
    setError('');
    setShared(false);
    const result = await apiPost<TradeBankAccountView>(`/rest/v1/trade/${hash}/bank-account`, {
      bank_account_id: picked,
    });
    setPhase('ready');
    if (result.ok) {
      setShared(true);
      onShared();
      return;
    }
    setError(result.errors[0]?.message || t('trade.action.failed'));
  };

  const pick = (id: string) => {
    setPicked(id);
    setShared(false);
  };

  return { choices, phase, picked, pick, share, error, shared };
}
