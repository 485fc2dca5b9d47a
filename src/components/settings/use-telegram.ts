import { useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { useChannel } from '../../lib/use-channel.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';

// The Telegram section's state: subscribed, the bot link, which modal is open, busy, failure,
// done; the `telegram:<usr_…>` channel's status, and the actions subscribe and unsubscribe.

export type TelegramModal = 'activate' | 'stop' | null;

export function useTelegram(userId: string, initiallySubscribed: boolean) {
  const { t, locale, lang } = useSettings();
  const [subscribed, setSubscribed] = useState(initiallySubscribed);
  const [link, setLink] = useState<string>();
  const [modal, setModal] = useState<TelegramModal>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();

  useChannel(`telegram:${userId}`, (event) => {
    if (event.type !== 'telegram_status') return;
    const status = (event.payload as { status?: string } | undefined)?.status;
    const isOn = status === 'subscribed';
    setSubscribed(isOn);
    setModal(null);
    setLink(undefined);
    if (isOn) setDone(t('settings.telegram.connected'));
  });

  const subscribe = async () => {
    setBusy(true);
    setFailure(noFailure);
    setDone(undefined);
    const result = await apiPost<{ subscriptionUrl: string }>(localized('/rest/v1/telegram/subscribe', locale));
    setBusy(false);
    if (result.ok && result.data) {
      setLink(result.data.subscriptionUrl);
      setModal('activate');
    } else setFailure(failureOf(result, [], { t, lang }));
  };

  const unsubscribe = async () => {
    setBusy(true);
    const result = await apiPost(localized('/rest/v1/telegram/unsubscribe', locale));
    setBusy(false);
    setModal(null);
    if (result.ok) {
      setSubscribed(false);
      setLink(undefined);
      setDone(t('settings.telegram.stopped'));
    } else setFailure(failureOf(result, [], { t, lang }));
  };

  return { subscribed, link, modal, setModal, busy, failure, done, subscribe, unsubscribe };
}
