import { useState } from 'react';
import { apiPost, NETWORK_ERROR_CODE, splitErrors } from '../../lib/api-client.ts';
import { CRYPTO_DECIMALS, fromMinorUnits, toMinorUnits } from '../../lib/shared/money.ts';
import type { CryptoCode, NetworkInfo, SendNetwork, WalletBalance, WalletUser } from './types.ts';
import { Field, fieldAria, formatAmount, Modal } from './ui.tsx';

// The send modal (spec sections 2 and 6): currency, network for tether, address (checked by the
// server: format, checksum, network), amount with "max" (the balance less the network fee), the
// fee, the second-factor code when sendouts ask for one. Without the allowed-sendout flag it says
// why and does not send. A request id per attempt makes a repeated click or a retry after a lost
// answer one sendout.

type T = (key: string, params?: Record<string, string | number>) => string;

const FIELDS = ['currency', 'network', 'address', 'amount', 'code'] as const;
const NETWORKS_OF: Record<CryptoCode, SendNetwork[]> = { BTC: ['bitcoin'], USDT: ['TRC20', 'ERC20'] };

const newRequestId = () => `snd_${crypto.randomUUID().replaceAll('-', '')}`;

export function SendModal({
  t,
  lang,
  api,
  user,
  balances,
  networks,
  onClose,
  onSent,
}: {
  t: T;
  lang: string;
  api(path: string): string;
  user: WalletUser;
  balances: WalletBalance[];
  networks: Record<SendNetwork, NetworkInfo>;
  onClose(): void;
  onSent(message: string): void;
}) {
  const [currency, setCurrency] = useState<CryptoCode>('BTC');
  const [network, setNetwork] = useState<SendNetwork>('bitcoin');
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [code, setCode] = useState('');
  const [requestId, setRequestId] = useState(newRequestId);
  const [posting, setPosting] = useState(false);
  const [errors, setErrors] = useState<{ summary: string | undefined; fields: Record<string, string> }>({
    summary: undefined,
    fields: {},
  });

  const info = networks[network];
  const balance = balances.find((b) => b.cryptoCurrencyCode === currency)?.balance ?? '0';
  const allowed = user.isAllowedSendout;
  // Any change of what is sent is a new sendout: a new request id.
  const edit =
    <V,>(set: (value: V) => void) =>
    (value: V) => {
      set(value);
      setRequestId(newRequestId());
    };

  const chooseCurrency = edit((next: CryptoCode) => {
    setCurrency(next);
    setNetwork(NETWORKS_OF[next][0] as SendNetwork);
    setAmount('');
  });

  const max = () => {
    const decimals = CRYPTO_DECIMALS[currency];
    const left = (toMinorUnits(balance, decimals) ?? 0) - (toMinorUnits(info.fee, decimals) ?? 0);
    edit(setAmount)(left > 0 ? fromMinorUnits(left, decimals).replace(/\.?0+$/, '') : '0');
  };

  const submit = async () => {
    if (!allowed || posting) return;
    setPosting(true);
    const answer = await apiPost<{ amount: string; cryptoCurrencyCode: CryptoCode }>(api('/rest/v1/wallet/send'), {
      currency,
      network,
      address: address.trim(),
      amount: amount.trim(),
      ...(user.sendoutCode ? { code: code.trim() } : {}),
      request_id: requestId,
    });
    setPosting(false);
    if (answer.ok && answer.data) {
      onSent(t('wallet.send.sent', { amount: formatAmount(answer.data.amount, answer.data.cryptoCurrencyCode, lang) }));
      return;
    }
    if (answer.errors.some((e) => e.code === NETWORK_ERROR_CODE)) {
      // No answer: the same request id again cannot send twice.
      setErrors({ summary: t('wallet.networkError'), fields: {} });
      return;
    }
    const split = splitErrors(answer.errors, FIELDS);
    setErrors({
      summary: split.summary ?? (Object.keys(split.fields).length ? undefined : t('wallet.genericError')),
      fields: split.fields,
    });
    // A refused code is spent or wrong: the next attempt brings a new one.
    if (split.fields.code) setCode('');
  };

  const field = (name: string) => errors.fields[name];

  return (
    <Modal title={t('wallet.send.title')} closeLabel={t('wallet.close')} onClose={onClose} className="wallet-send">
      {!allowed && (
        <p className="alert alert-info" data-not-allowed>
          {t(user.isEmailVerified ? 'wallet.send.notAllowed' : 'wallet.send.notAllowedEmail')}
        </p>
      )}
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <p className="alert alert-error" role="alert">
          {errors.summary}
        </p>
        <div className="wallet-send-row">
          <Field id="send-currency" label={t('wallet.send.currency')} error={field('currency')}>
            <select
              {...fieldAria('send-currency', field('currency'))}
              className="input"
              value={currency}
              onChange={(event) => chooseCurrency(event.target.value as CryptoCode)}
            >
              <option value="BTC">{t('wallet.bitcoin')} (BTC)</option>
              <option value="USDT">{t('wallet.tether')} (USDT)</option>
            </select>
          </Field>
          <Field id="send-network" label={t('wallet.send.network')} error={field('network')}>
            <select
              {...fieldAria('send-network', field('network'))}
              className="input"
              value={network}
              disabled={currency === 'BTC'}
              onChange={(event) => edit(setNetwork)(event.target.value as SendNetwork)}
            >
              {NETWORKS_OF[currency].map((n) => (
                <option key={n} value={n}>
                  {t(`wallet.network.${n}`)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field id="send-address" label={t('wallet.send.address')} error={field('address')}>
          <input
            {...fieldAria('send-address', field('address'))}
            className="input wallet-mono"
            autoComplete="off"
            spellCheck={false}
            value={address}
            onChange={(event) => edit(setAddress)(event.target.value)}
          />
        </Field>
        <Field
          id="send-amount"
          label={t('wallet.send.amount', { currency })}
          error={field('amount')}
          hint={
            <>
              {t('wallet.send.fee', { fee: formatAmount(info.fee, currency, lang) })}
              {' · '}
              {t('wallet.convert.available', { amount: formatAmount(balance, currency, lang) })}
            </>
          }
        >
          <div className="wallet-amount-row">
            <input
              {...fieldAria('send-amount', field('amount'), true)}
              className="input"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              onChange={(event) => edit(setAmount)(event.target.value.replace(',', '.'))}
            />
            <button type="button" className="btn btn-secondary" onClick={max}>
              {t('wallet.max')}
            </button>
          </div>
        </Field>
        {user.sendoutCode && (
          <Field id="send-code" label={t('wallet.send.code')} error={field('code')}>
            <input
              {...fieldAria('send-code', field('code'))}
              className="input"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          </Field>
        )}
        <div className="wallet-modal-actions">
          <button type="submit" className="btn btn-primary" disabled={!allowed || posting}>
            {posting ? t('wallet.send.posting') : t('wallet.send.submit')}
          </button>
          <button type="button" className="btn btn-secondary" onClick={onClose}>
            {t('wallet.cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
