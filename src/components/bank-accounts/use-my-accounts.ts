import { useState } from 'react';
import { apiRequest } from '../../lib/api-client.ts';
import type { BankAccountView } from '../../lib/shared/views/bank-accounts.ts';
import type { T } from './types.ts';

// The saved accounts: a new one on top, an edited one in its place, and deleting one after the
// reader confirms. An account a running trade shows cannot go (409 BANK_ACCOUNT_IN_TRADE): that is
// said in words, with the trade to open; any other failure gives the server's message.

export type Notice = { kind: 'danger' | 'success'; text: string; tradeHash?: string };

export function useMyAccounts(initial: BankAccountView[], t: T) {
  const [accounts, setAccounts] = useState(initial);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);

  const saved = (account: BankAccountView) => {
    setAccounts((list) =>
      list.some((a) => a.id === account.id) ? list.map((a) => (a.id === account.id ? account : a)) : [account, ...list],
    );
    setNotice(null);
  };

  const remove = async (id: string) => {
    setDeleting(id);
    setNotice(null);
    const result = await apiRequest<unknown>('DELETE', `/rest/v1/bankaccounts/${encodeURIComponent(id)}`);
    setDeleting(null);
    setConfirming(null);
    if (result.ok) {
      setAccounts((list) => list.filter((account) => account.id !== id));
      setNotice({ kind: 'success', text: t('bankAccounts.delete.done') });
      return;
    }
    const error = result.errors[0];
    if (error?.code === 'BANK_ACCOUNT_IN_TRADE') {
      const hash = result.meta?.tradeHash;
      setNotice({
        kind: 'danger',
        text: t('bankAccounts.delete.inTrade'),
        ...(typeof hash === 'string' ? { tradeHash: hash } : {}),
      });
      return;
    }
    setNotice({ kind: 'danger', text: error?.message || t('bankAccounts.delete.failed') });
  };

  return { accounts, saved, confirming, setConfirming, deleting, remove, notice };
}

export type MyAccounts = ReturnType<typeof useMyAccounts>;
