import { useEffect, useMemo, useRef } from 'react';
import type { IslandMessages } from '../../lib/shared/i18n/island-messages.ts';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { type Locale, localizePath } from '../../lib/shared/i18n/locales.ts';
import type { BankAccountView } from '../../lib/shared/views/bank-accounts.ts';
import { AccountForm } from './AccountForm.tsx';
import { AccountList } from './AccountList.tsx';
import type { CountryChoice } from './types.ts';
import { useAccountForm } from './use-account-form.ts';
import { useMyAccounts } from './use-my-accounts.ts';

// "Bank accounts" (issue 19; spec sections 2, 3 "Bank account", 5 and 8): the person's saved
// accounts, editing or deleting one, and the form that adds one. The page renders it with the
// accounts and countries first, so hydration never mismatches.

type Props = {
  locale: Locale;
  messages: IslandMessages;
  accounts: BankAccountView[];
  countries: CountryChoice[];
  defaultCountryId: number;
};

export default function BankAccountsApp(props: Props) {
  const t = useMemo(() => islandTranslator(props.messages), [props.messages]);
  const state = useMyAccounts(props.accounts, t);
  const form = useAccountForm(props.countries, props.defaultCountryId, t, state.saved);
  const formTitle = useRef<HTMLHeadingElement>(null);
  const names = useMemo(() => new Map(props.countries.map((c) => [c.id, c.name])), [props.countries]);
  const notice = state.notice;
  const editingGone = form.editing !== null && !state.accounts.some((a) => a.id === form.editing?.id);
  useEffect(() => {
    // The account being edited was deleted: the form goes back to adding one.
    if (editingGone) form.edit(null);
  }, [editingGone, form.edit]);
  return (
    <div className="ba-app">
      <section className="card ba-section" aria-labelledby="ba-list-title" data-testid="bank-account-list">
        <h2 className="h3" id="ba-list-title">
          {t('bankAccounts.list.title')}
        </h2>
        {notice && (
          <p
            className={`alert ${notice.kind === 'danger' ? 'alert-error' : 'alert-success'}`}
            role={notice.kind === 'danger' ? 'alert' : 'status'}
          >
            {notice.text}{' '}
            {notice.tradeHash && (
              <a className="text-link" href={localizePath(props.locale, `/trade/${notice.tradeHash}`)}>
                {t('bankAccounts.delete.openTrade')}
              </a>
            )}
          </p>
        )}
        <AccountList
          t={t}
          state={state}
          editingId={form.editing?.id}
          countryName={(account) => names.get(account.country.id) ?? account.country.name}
          onEdit={(account) => {
            form.edit(account);
            // The form is beside the list on a wide screen and below it on a phone: bring it in view.
            formTitle.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
            formTitle.current?.focus();
          }}
        />
      </section>
      <section className="card ba-section" aria-labelledby="ba-form-title">
        <h2 className="h3" id="ba-form-title" ref={formTitle} tabIndex={-1}>
          {t(form.editing ? 'bankAccounts.form.editTitle' : 'bankAccounts.form.addTitle')}
        </h2>
        <p className="muted ba-lead">{t('bankAccounts.form.lead')}</p>
        <AccountForm t={t} form={form} countries={props.countries} />
      </section>
    </div>
  );
}
