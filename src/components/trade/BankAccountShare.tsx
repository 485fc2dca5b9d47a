import { useId } from 'react';
import { accountSummary, type ShareChoice } from './bank-details.ts';
import type { T } from './ui.tsx';
import { useBankAccountShare } from './use-bank-account-share.ts';

// The seller's "Share bank details" in a running bank-transfer trade: one of their saved accounts
// in the trade's currency (the others listed, not selectable) and one action that shows it to the
// buyer; sharing again replaces it. No account in the currency: a link to the bank accounts page.

export interface BankAccountShareProps {
  hash: string;
  currency: string;
  /** An account is shown to the buyer already: the action replaces it. */
  hasShared: boolean;
  /** `''` for English, `/de` and so on. */
  prefix: string;
  t: T;
  onShared(): void;
}

function Choice({ choice, name, picked, currency, t, onPick }: ChoiceProps) {
  const { account, matches } = choice;
  return (
    <li>
      <label className={`trade-bank-choice${matches ? '' : ' is-disabled'}`}>
        <input
          type="radio"
          name={name}
          value={account.id}
          checked={picked === account.id}
          disabled={!matches}
          onChange={() => onPick(account.id)}
        />
        <span>
          <span className="trade-bank-choice-text" dir="auto">
            {accountSummary(account)}
          </span>{' '}
          <span className="muted">
            {matches ? account.fiatCurrency.code : t('trade.bank.share.otherCurrency', { currency })}
          </span>
        </span>
      </label>
    </li>
  );
}

interface ChoiceProps {
  choice: ShareChoice;
  name: string;
  picked: string;
  currency: string;
  t: T;
  onPick(id: string): void;
}

export function BankAccountShare(props: BankAccountShareProps) {
  const { currency, prefix, t } = props;
  const state = useBankAccountShare(props);
  const name = useId();
  const titleId = useId();
  const addLink = (
    <a className="text-link" href={`${prefix}/bank-accounts`} data-add-bank-account>
      {t('trade.bank.share.add')}
    </a>
  );
  const anyMatch = state.choices.some((c) => c.matches);
  return (
    <section className="trade-bank-share" aria-labelledby={titleId} data-bank-share={state.phase}>
      <h3 id={titleId} className="trade-subtitle">
        {t('trade.bank.share.title')}
      </h3>
      {state.phase === 'loading' && <p className="muted">{t('trade.bank.share.loading')}</p>}
      {state.phase === 'failed' && <p className="field-error">{t('trade.bank.share.loadFailed')}</p>}
      {state.phase !== 'loading' && state.phase !== 'failed' && !anyMatch && (
        <p data-no-bank-account>
          {t('trade.bank.share.none', { currency })} {addLink}
        </p>
      )}
      {anyMatch && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void state.share();
          }}
        >
          <fieldset className="trade-bank-choices">
            <legend className="muted">{t('trade.bank.share.intro', { currency })}</legend>
            <ul>
              {state.choices.map((choice) => (
                <Choice
                  key={choice.account.id}
                  choice={choice}
                  name={name}
                  picked={state.picked}
                  currency={currency}
                  t={t}
                  onPick={state.pick}
                />
              ))}
            </ul>
          </fieldset>
          <div className="trade-bank-share-actions">
            <button
              type="submit"
              className="btn btn-primary"
              disabled={state.phase === 'sharing' || !state.picked}
              aria-busy={state.phase === 'sharing'}
              data-share-bank-account
            >
              {t(props.hasShared ? 'trade.bank.share.replace' : 'trade.bank.share.action')}
            </button>
            <span className="trade-bank-shared" role="status" data-bank-shared={state.shared || undefined}>
              {state.shared ? t('trade.bank.share.done') : ''}
            </span>
            {addLink}
          </div>
          {props.hasShared && <p className="muted">{t('trade.bank.share.replaceHint')}</p>}
          {state.error && (
            <p className="field-error" role="alert">
              {state.error}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
