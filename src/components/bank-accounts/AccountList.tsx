import type { BankAccountView } from '../../lib/shared/views/bank-accounts.ts';
import { ConfirmDelete } from '../ConfirmDelete.tsx';
import type { T } from './types.ts';
import type { MyAccounts } from './use-my-accounts.ts';

// The saved accounts, each masked (its last four characters) with holder, bank, country, currency
// and kind, and its edit and delete buttons. Delete asks first, in place, focus on the answer.

export function AccountList({
  t,
  state,
  editingId,
  onEdit,
  countryName,
}: {
  t: T;
  state: MyAccounts;
  /** The country's name in the reader's language (the accounts carry the stored one). */
  countryName: (account: BankAccountView) => string;
  editingId: string | undefined;
  onEdit: (account: BankAccountView) => void;
}) {
  if (state.accounts.length === 0) {
    return (
      <div className="ba-empty" data-testid="bank-accounts-empty">
        <p>{t('bankAccounts.empty.title')}</p>
        <p className="muted">{t('bankAccounts.empty.text')}</p>
      </div>
    );
  }
  return (
    <ul className="ba-list">
      {state.accounts.map((account) => (
        <li
          key={account.id}
          className="ba-account"
          data-testid="bank-account"
          aria-current={account.id === editingId || undefined}
        >
          <AccountSummary t={t} account={account} country={countryName(account)} />
          <div className="ba-actions">
            <button
              type="button"
              className="btn btn-secondary"
              aria-label={t('bankAccounts.edit.label', { number: numberOf(account) })}
              onClick={() => onEdit(account)}
            >
              {t('bankAccounts.edit.action')}
            </button>
            <DeleteControl t={t} account={account} state={state} />
          </div>
        </li>
      ))}
    </ul>
  );
}

const numberOf = (account: BankAccountView) => account.ibanMasked ?? account.accountNumberMasked ?? '';

function AccountSummary({ t, account, country }: { t: T; account: BankAccountView; country: string }) {
  return (
    <div className="ba-account-main">
      <h3 className="ba-account-title">
        <span className="ba-number" dir="ltr">
          {numberOf(account)}
        </span>
        <span>{account.bank?.name ?? t('bankAccounts.list.noBank')}</span>
      </h3>
      <dl className="ba-facts">
        <div>
          <dt>{t('bankAccounts.list.holder')}</dt>
          <dd>{account.holderName}</dd>
        </div>
        <div>
          <dt>{t('bankAccounts.list.country')}</dt>
          <dd>{country}</dd>
        </div>
        <div>
          <dt>{t('bankAccounts.list.currency')}</dt>
          <dd>{account.fiatCurrency.code}</dd>
        </div>
        <div>
          <dt>{t('bankAccounts.list.kind')}</dt>
          <dd>
            {t(`bankAccounts.kind.${account.kind}`)} ·{' '}
            {t(account.isPersonal ? 'bankAccounts.personal' : 'bankAccounts.business')}
          </dd>
        </div>
      </dl>
    </div>
  );
}

function DeleteControl({ t, account, state }: { t: T; account: BankAccountView; state: MyAccounts }) {
  return (
    <ConfirmDelete
      id={account.id}
      asking={state.confirming === account.id}
      busy={state.deleting === account.id}
      words={{
        action: t('bankAccounts.delete.action'),
        actionLabel: t('bankAccounts.delete.label', { number: numberOf(account) }),
        confirm: t('bankAccounts.delete.confirm'),
        yes: t('bankAccounts.delete.yes'),
        no: t('bankAccounts.delete.no'),
      }}
      classes={{ box: 'ba-confirm' }}
      onAsk={() => state.setConfirming(account.id)}
      onCancel={() => state.setConfirming(null)}
      onConfirm={() => void state.remove(account.id)}
    />
  );
}
