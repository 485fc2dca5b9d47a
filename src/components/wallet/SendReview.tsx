import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import { ModalForm } from './form-parts.tsx';
import { totalDebited } from './send-checks.ts';
import { Field, fieldAria } from './ui.tsx';
import type { SendForm } from './use-send-form.ts';

// The send modal's review (issue 22): nothing leaves on the form's button. The person reads what
// goes where — the full address, the network, the amount, the network fee and the total taken
// from the wallet — gives the second-factor code when sendouts ask for one, and confirms; Edit
// goes back to the form with everything kept. Confirm is disabled while the sendout is posted.

type T = (key: string, params?: Record<string, string | number>) => string;

export function SendReview({ t, lang, form, askCode }: { t: T; lang: string; form: SendForm; askCode: boolean }) {
  const { currency, info } = form;
  const amount = form.amount.trim();
  const money = (text: string) => formatCryptoAmount(text, currency, lang);
  return (
    <ModalForm onSubmit={() => void form.confirm()}>
      <h3 className="wallet-review-title" id="send-review-title" tabIndex={-1}>
        {t('wallet.send.reviewHeading')}
      </h3>
      <dl className="wallet-review" aria-labelledby="send-review-title" data-review-summary>
        <div className="wallet-review-address">
          <dt>{t('wallet.send.reviewAddress')}</dt>
          <dd className="wallet-mono" dir="ltr" data-review="address">
            {form.address.trim()}
          </dd>
        </div>
        <div>
          <dt>{t('wallet.send.reviewNetwork')}</dt>
          <dd data-review="network">{t(`wallet.network.${form.network}`)}</dd>
        </div>
        <div>
          <dt>{t('wallet.send.reviewAmount')}</dt>
          <dd data-review="amount">{money(amount)}</dd>
        </div>
        <div>
          <dt>{t('wallet.send.reviewFee')}</dt>
          <dd data-review="fee">{money(info.fee)}</dd>
        </div>
        <div className="wallet-review-total">
          <dt>{t('wallet.send.reviewTotal')}</dt>
          <dd data-review="total">{money(totalDebited(amount, info.fee, currency))}</dd>
        </div>
      </dl>
      <p className="alert alert-info">{t('wallet.send.reviewWarning')}</p>
      <p className="alert alert-error" role="alert">
        {form.errors.summary}
      </p>
      {askCode && <SendCodeField t={t} form={form} />}
      <div className="wallet-modal-actions">
        <button type="submit" className="btn btn-primary" disabled={form.posting} data-confirm>
          {form.posting ? t('wallet.send.posting') : t('wallet.send.confirm')}
        </button>
        <button type="button" className="btn btn-secondary" disabled={form.posting} onClick={form.edit}>
          {t('wallet.send.edit')}
        </button>
      </div>
    </ModalForm>
  );
}

function SendCodeField({ t, form }: { t: T; form: SendForm }) {
  const error = form.errors.fields.code;
  return (
    <Field id="send-code" label={t('wallet.send.code')} error={error}>
      <input
        {...fieldAria('send-code', error)}
        className="input"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={form.code}
        onChange={(event) => form.setCode(event.target.value)}
      />
    </Field>
  );
}
