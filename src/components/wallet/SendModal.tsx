import { AmountInput, ModalActions, ModalForm } from './form-parts.tsx';
import type { CryptoCode, SendNetwork } from './types.ts';
import { Field, fieldAria, formatAmount, Modal } from './ui.tsx';
import { NETWORKS_OF, type SendForm, type SendFormInput, useSendForm } from './use-send-form.ts';

// The send modal (spec sections 2 and 6): currency, network for tether, address (checked by the
// server: format, checksum, network), amount with "max" (the balance less the network fee), the
// fee, the second-factor code when sendouts ask for one. Without the allowed-sendout flag it says
// why and does not send. A request id per attempt makes a repeated click or a retry after a lost
// answer one sendout (use-send-form.ts).

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
  return (
    <Modal title={t('wallet.send.title')} closeLabel={t('wallet.close')} onClose={onClose} className="wallet-send">
      {!form.allowed && (
        <p className="alert alert-info" data-not-allowed>
          {t(user.isEmailVerified ? 'wallet.send.notAllowed' : 'wallet.send.notAllowedEmail')}
        </p>
      )}
      <ModalForm onSubmit={() => void form.submit()}>
        <p className="alert alert-error" role="alert">
          {form.errors.summary}
        </p>
        <SendCurrencyRow t={t} form={form} />
        <SendAddressField t={t} form={form} />
        <SendAmountField t={t} form={form} lang={lang} />
        {user.sendoutCode && <SendCodeField t={t} form={form} />}
        <ModalActions
          label={form.posting ? t('wallet.send.posting') : t('wallet.send.submit')}
          disabled={!form.allowed || form.posting}
          cancelLabel={t('wallet.cancel')}
          onCancel={onClose}
        />
      </ModalForm>
    </Modal>
  );
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
          {t('wallet.send.fee', { fee: formatAmount(form.info.fee, currency, lang) })}
          {' · '}
          {t('wallet.convert.available', { amount: formatAmount(form.balance, currency, lang) })}
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

function SendCodeField({ t, form }: Part) {
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
