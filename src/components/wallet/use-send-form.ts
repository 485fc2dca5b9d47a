import { useRef, useState } from 'react';
import { type ApiError, apiPost, NETWORK_ERROR_CODE, splitErrors } from '../../lib/api-client.ts';
import { formatCryptoAmount } from '../../lib/shared/format-crypto.ts';
import { draftProblems, maxSendable } from './send-checks.ts';
import type { CryptoCode, NetworkInfo, SendNetwork, WalletBalance, WalletUser } from './types.ts';

// The send modal's state: what is sent, the request id of this attempt (any change of what is
// sent is a new sendout: a new id), the step (the form, then the review that alone sends),
// posting, the errors, and the actions "max", review, edit and confirm.

type T = (key: string, params?: Record<string, string | number>) => string;

export interface SendErrors {
  summary: string | undefined;
  fields: Record<string, string>;
}

const FIELDS = ['currency', 'network', 'address', 'amount', 'code'] as const;
export const NETWORKS_OF: Record<CryptoCode, SendNetwork[]> = { BTC: ['bitcoin'], USDT: ['TRC20', 'ERC20'] };

const newRequestId = () => `snd_${crypto.randomUUID().replaceAll('-', '')}`;

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

/** The fields the form holds (the code is the review's): a problem there sends the person back to it. */
const FORM_FIELDS: readonly string[] = FIELDS.filter((field) => field !== 'code');

export function useSendForm({ t, lang, api, user, balances, networks, onSent }: SendFormInput) {
  const fields = useSendFields();
  const { currency, network, address, amount, code, requestId } = fields;
  const [step, setStep] = useState<'edit' | 'review'>('edit');
  const [posting, setPosting] = useState(false);
  // A second click lands before React re-renders the disabled button: this refuses it at once.
  const inFlight = useRef(false);
  const [errors, setErrors] = useState<SendErrors>({ summary: undefined, fields: {} });
  const info = networks[network];
  const balance = balances.find((b) => b.cryptoCurrencyCode === currency)?.balance ?? '0';
  const allowed = user.isAllowedSendout;

  const max = () => fields.setAmount(maxSendable(balance, info.fee, currency));

  /** The form's own checks, then the review: nothing is sent yet. */
  const review = () => {
    if (!allowed) return;
    const problems = draftProblems(t, lang, { currency, address, amount, balance, info });
    setErrors({ summary: undefined, fields: problems });
    if (Object.keys(problems).length === 0) setStep('review');
  };

  const edit = () => {
    setErrors({ summary: undefined, fields: {} });
    setStep('edit');
  };

  const confirm = async () => {
    if (!allowed || inFlight.current) return;
    inFlight.current = true;
    setPosting(true);
    const answer = await apiPost<{ amount: string; cryptoCurrencyCode: CryptoCode }>(api('/rest/v1/wallet/send'), {
      currency,
      network,
      address: address.trim(),
      amount: amount.trim(),
      ...(user.sendoutCode ? { code: code.trim() } : {}),
      request_id: requestId,
    });
    inFlight.current = false;
    setPosting(false);
    if (answer.ok && answer.data) {
      const sent = formatCryptoAmount(answer.data.amount, answer.data.cryptoCurrencyCode, lang);
      onSent(t('wallet.send.sent', { amount: sent }));
      return;
    }
    const next = refusal(answer.errors, t);
    setErrors(next);
    // The server's verdict on what the form holds: back to the form, its fields marked.
    if (Object.keys(next.fields).some((field) => FORM_FIELDS.includes(field))) setStep('edit');
    // A refused code is spent or wrong: the next attempt brings a new one.
    if (next.fields.code) fields.setCode('');
  };

  return { ...fields, info, balance, allowed, step, posting, errors, max, review, edit, confirm };
}

export type SendForm = ReturnType<typeof useSendForm>;
