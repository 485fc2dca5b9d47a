import { useState } from 'react';
import { type ApiError, apiPost, NETWORK_ERROR_CODE, splitErrors } from '../../lib/api-client.ts';
import { CRYPTO_DECIMALS, fromMinorUnits, toMinorUnits } from '../../lib/shared/money.ts';
import type { CryptoCode, NetworkInfo, SendNetwork, WalletBalance, WalletUser } from './types.ts';
import { formatAmount } from './ui.tsx';

// The send modal's state: what is sent, the request id of this attempt (any change of what is
// sent is a new sendout: a new id), posting, the errors, and the actions "max" and submit.

type T = (key: string, params?: Record<string, string | number>) => string;

export interface SendErrors {
  summary: string | undefined;
  fields: Record<string, string>;
}

const FIELDS = ['currency', 'network', 'address', 'amount', 'code'] as const;
export const NETWORKS_OF: Record<CryptoCode, SendNetwork[]> = { BTC: ['bitcoin'], USDT: ['TRC20', 'ERC20'] };

const newRequestId = () => `snd_${crypto.randomUUID().replaceAll('-', '')}`;

/** The balance less the network fee, as decimal text without trailing zeros (or 0). */
export function maxSendable(balance: string, fee: string, currency: CryptoCode): string {
  const decimals = CRYPTO_DECIMALS[currency];
  const left = (toMinorUnits(balance, decimals) ?? 0) - (toMinorUnits(fee, decimals) ?? 0);
  return left > 0 ? fromMinorUnits(left, decimals).replace(/\.?0+$/, '') : '0';
}

/** A refused sendout's errors: a lost answer, the fields', or the generic message. */
function refusal(errors: ApiError[], t: T): SendErrors {
  if (errors.some((e) => e.code === NETWORK_ERROR_CODE)) {
    // No answer: the same request id again cannot send twice.
    return { summary: t('wallet.networkError'), fields: {} };
  }
  const split = splitErrors(errors, FIELDS);
  return {
    summary: split.summary ?? (Object.keys(split.fields).length ? undefined : t('wallet.genericError')),
    fields: split.fields,
  };
}

export interface SendFormInput {
  t: T;
  lang: string;
  api(path: string): string;
  user: WalletUser;
  balances: WalletBalance[];
  networks: Record<SendNetwork, NetworkInfo>;
  onSent(message: string): void;
}

function useSendFields() {
  const [currency, setCurrency] = useState<CryptoCode>('BTC');
  const [network, setNetwork] = useState<SendNetwork>('bitcoin');
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [code, setCode] = useState('');
  const [requestId, setRequestId] = useState(newRequestId);
  const edit =
    <V>(set: (value: V) => void) =>
    (value: V) => {
      set(value);
      setRequestId(newRequestId());
    };
  const chooseCurrency = edit((next: CryptoCode) => {
    setCurrency(next);
    setNetwork(NETWORKS_OF[next][0] as SendNetwork);
    setAmount('');
  });
  return {
    currency,
    network,
    address,
    amount,
    code,
    requestId,
    chooseCurrency,
    setNetwork: edit(setNetwork),
    setAddress: edit(setAddress),
    setAmount: edit(setAmount),
    setCode,
  };
}

export function useSendForm({ t, lang, api, user, balances, networks, onSent }: SendFormInput) {
  const fields = useSendFields();
  const { currency, network, address, amount, code, requestId } = fields;
  const [posting, setPosting] = useState(false);
  const [errors, setErrors] = useState<SendErrors>({ summary: undefined, fields: {} });
  const info = networks[network];
  const balance = balances.find((b) => b.cryptoCurrencyCode === currency)?.balance ?? '0';
  const allowed = user.isAllowedSendout;

  const max = () => fields.setAmount(maxSendable(balance, info.fee, currency));

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
    const next = refusal(answer.errors, t);
    setErrors(next);
    // A refused code is spent or wrong: the next attempt brings a new one.
    if (next.fields.code) fields.setCode('');
  };

  return { ...fields, info, balance, allowed, posting, errors, max, submit };
}

export type SendForm = ReturnType<typeof useSendForm>;
