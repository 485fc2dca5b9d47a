import { type SubmitEvent, useEffect, useRef, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';

// The phone form's state: the number, the code, which request is on its way, the failure, the
// "sent" message and a 429's hold; the actions send (SMS or call) and confirm.

export type PhoneBusy = 'sms' | 'call' | 'confirm' | null;

export interface PhoneFormInput {
  sentTo: string | undefined;
  onSent: (phone: string) => void;
  onReset: () => void;
  onVerified: (phone: string) => void;
}

/** Focus on the code field once a code is on its way; a 429's hold lifted when it ends. */
function usePhoneEffects(sentTo: string | undefined) {
  const [heldUntil, setHeldUntil] = useState<number>();
  const codeInput = useRef<HTMLInputElement>(null);

  // The code field appears once a code is on its way: the next thing to type.
  useEffect(() => {
    if (sentTo !== undefined) codeInput.current?.focus();
  }, [sentTo]);

  // A 429 holds the send buttons until the server takes requests again.
  useEffect(() => {
    if (heldUntil === undefined) return;
    const timer = setTimeout(() => setHeldUntil(undefined), Math.max(0, heldUntil - Date.now()));
    return () => clearTimeout(timer);
  }, [heldUntil]);

  return { codeInput, held: heldUntil !== undefined, setHeldUntil };
}

export function usePhoneForm({ sentTo, onSent, onReset, onVerified }: PhoneFormInput) {
  const { t, locale, lang } = useSettings();
  const [phone, setPhone] = useState(sentTo ?? '');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState<PhoneBusy>(null);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [sentMessage, setSentMessage] = useState<string>();
  const { codeInput, held, setHeldUntil } = usePhoneEffects(sentTo);

  const send = async (channel: 'sms' | 'call') => {
    setBusy(channel);
    setFailure(noFailure);
    setSentMessage(undefined);
    const number = phone.trim();
    const result = await apiPost(localized('/account/send-phone-code', locale), {
      phone: number,
      ...(channel === 'call' ? { call: true } : {}),
    });
    setBusy(null);
    if (result.ok) {
      setSentMessage(result.message ?? t('settings.phone.sent'));
      setCode('');
      onSent(number);
    } else {
      const failed = failureOf(result, ['phone'], { t, lang });
      setFailure(failed);
      setHeldUntil(failed.retryAt);
      // Spec section 8: a failed send clears the code-sent flag.
      onReset();
    }
  };

  const confirm = async (event: SubmitEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setFailure({ summary: undefined, fields: { phoneCode: t('settings.phone.codeMissing') } });
      return;
    }
    setBusy('confirm');
    setFailure(noFailure);
    const result = await apiPost<{ isPhoneVerified: boolean; phone: string }>(
      localized('/rest/v1/users/confirm-phone', locale),
      { phoneCode: code.trim() },
    );
    setBusy(null);
    if (result.ok && result.data) onVerified(result.data.phone);
    else setFailure(failureOf(result, ['phoneCode'], { t, lang }));
  };

  const changeNumber = () => {
    setSentMessage(undefined);
    onReset();
  };

  return { phone, setPhone, code, setCode, busy, failure, sentMessage, held, codeInput, send, confirm, changeNumber };
}

export type PhoneFormState = ReturnType<typeof usePhoneForm>;
