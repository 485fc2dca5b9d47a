import { useEffect, useRef } from 'react';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import { AmountInput, ModalActions, ModalForm } from './form-parts.tsx';
import { SendReview } from './SendReview.tsx';
import type { CryptoCode, SendNetwork } from './types.ts';
import { Field, fieldAria, Modal } from './ui.tsx';
import { NETWORKS_OF, type SendForm, type SendFormInput, useSendForm } from './use-send-form.ts';

// The send modal (spec sections 2 and 6) in two steps. The form: currency, network for tether,
// address, amount with "max" (the balance less the network fee) and the fee; Review checks what it
// can and shows the review: the address, the network, the amount, the fee, the total taken from
// the wallet, the second-factor code when sendouts ask for one, and Confirm, which alone sends
// (Edit goes back). Without the allowed-sendout flag it says why and does not send. A request id
// per attempt makes a double click or a retry after a lost answer one sendout (use-send-form.ts).

type T = (key: string, params?: Record<string, string | number>) => string;

interface Part {
  t: T;
  form: SendForm;
}

export function SendModal({
  t,
  lang,
  api,
  user,
  balances,
  networks,
  onClose,
  onSent,
}: SendFormInput & { onClose(): void }) {
  const form = useSendForm({ t, lang, api, user, balances, networks, onSent });
  const body = useStepFocus(form.step);
  return (
    <Modal title={t('wallet.send.title')} closeLabel={t('wallet.close')} onClose={onClose} className="wallet-send">
      {!form.allowed && (
        <p className="alert alert-info" id="send-not-allowed" data-not-allowed>
          {t(user.isEmailVerified ? 'wallet.send.notAllowed' : 'wallet.send.notAllowedEmail')}
        </p>
      )}
      <div className="wallet-send-step" ref={body}>
        {form.step === 'review' ? (
          <SendReview t={t} lang={lang} form={form} askCode={user.sendoutCode} />
        ) : (
          <ModalForm onSubmit={form.review}>
            <p className="alert alert-error" role="alert">
              {form.errors.summary}
            </p>
            <SendCurrencyRow t={t} form={form} />
            <SendAddressField t={t} form={form} />
            <SendAmountField t={t} form={form} lang={lang} />
            <ModalActions
              label={t('wallet.send.review')}
              disabled={!form.allowed}
              reasonId="send-not-allowed"
              cancelLabel={t('wallet.cancel')}
              onCancel={onClose}
              marker={{ 'data-review': true }}
            />
          </ModalForm>
        )}
      </div>
    </Modal>
  );
}

/**
 * Where focus goes when the step changes (the button pressed is gone): the review's heading, or
 * back on the form the first field with a problem, else the address.
 */
function useStepFocus(step: SendForm['step']) {
  const body = useRef<HTMLDivElement>(null);
  const shown = useRef(step);
  useEffect(() => {
    if (shown.current === step) return;
    shown.current = step;
    const selector = step === 'review' ? '#send-review-title' : '[aria-invalid="true"], #send-address';
    body.current?.querySelector<HTMLElement>(selector)?.focus();
  }, [step]);
  return body;
}

function SendCurrencyRow({ t, form }: Part) {
  const { currency, network, errors } = form;
  return (
    <div className="wallet-send-row">
      <Field id="send-currency" label={t('wallet.send.currency')} error={errors.fields.currency}>
        <select
          {...fieldAria('send-currency', errors.fields.currency)}
          className="input"
          value={currency}
          onChange={(event) => form.chooseCurrency(event.target.value as CryptoCode)}
        >
          <option value="BTC">{t('wallet.bitcoin')} (BTC)</option>
          <option value="USDT">{t('wallet.tether')} (USDT)</option>
        </select>
      </Field>
      <Field id="send-network" label={t('wallet.send.network')} error={errors.fields.network}>
        <select
          {...fieldAria('send-network', errors.fields.network)}
          className="input"
          value={network}
          disabled={currency === 'BTC'}
          onChange={(event) => form.setNetwork(event.target.value as SendNetwork)}
        >
          {NETWORKS_OF[currency].map((n) => (
            <option key={n} value={n}>
              {t(`wallet.network.${n}`)}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}

function SendAddressField({ t, form }: Part) {
  const error = form.errors.fields.address;
  return (
    <Field id="send-address" label={t('wallet.send.address')} error={error}>
      <input
        {...fieldAria('send-address', error)}
        className="input wallet-mono"
        autoComplete="off"
        spellCheck={false}
        value={form.address}
        onChange={(event) => form.setAddress(event.target.value)}
      />
    </Field>
  );
}

function SendAmountField({ t, form, lang }: Part & { lang: string }) {
  const { currency, errors } = form;
  return (
    <Field
      id="send-amount"
      label={t('wallet.send.amount', { currency })}
      error={errors.fields.amount}
      hint={
        <>
          {t('wallet.send.fee', { fee: formatCryptoAmount(form.info.fee, currency, lang) })}
          {' · '}
          {t('wallet.convert.available', { amount: formatCryptoAmount(form.balance, currency, lang) })}
        </>
      }
    >
      <AmountInput
        id="send-amount"
        error={errors.fields.amount}
        hint
        value={form.amount}
        maxLabel={t('wallet.max')}
        onChange={form.setAmount}
        onMax={form.max}
      />
    </Field>
  );
}
