import { useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { useChannel } from '../../lib/use-channel.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';
import { FormAlert, Modal, SectionCard, StatusLine, SubmitButton } from './ui.tsx';

// The Telegram bot (spec sections 2 and 4): subscribing gets a link and opens the "activate"
// modal; the bot's Start arrives as `telegram_status` on `telegram:<usr_…>`, which sets the state
// and closes any modal. Unsubscribing asks first ("stop telegram bot" modal) and clears the link.

export function TelegramSection({ userId, initiallySubscribed }: { userId: string; initiallySubscribed: boolean }) {
  const { t, locale, lang } = useSettings();
  const [subscribed, setSubscribed] = useState(initiallySubscribed);
  const [link, setLink] = useState<string>();
  const [modal, setModal] = useState<'activate' | 'stop' | null>(null);
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

  return (
    <SectionCard id="telegram" title={t('settings.telegram.title')} lead={t('settings.telegram.lead')}>
      <div className="stack-sm">
        <FormAlert message={failure.summary} />
        <p className="state-line">
          <span className={`badge ${subscribed ? 'badge-on' : 'badge-off'}`}>
            {subscribed ? t('settings.on') : t('settings.off')}
          </span>
          <span>{subscribed ? t('settings.telegram.stateOn') : t('settings.telegram.stateOff')}</span>
        </p>
        <StatusLine message={done} />
        <div className="button-row">
          {subscribed ? (
            <button type="button" className="btn btn-secondary" onClick={() => setModal('stop')}>
              {t('settings.telegram.stop')}
            </button>
          ) : (
            <SubmitButton type="button" busy={busy && modal === null} onClick={subscribe}>
              {t('settings.telegram.connect')}
            </SubmitButton>
          )}
        </div>
      </div>

      <Modal open={modal === 'activate'} title={t('settings.telegram.activateTitle')} onClose={() => setModal(null)}>
        <p>{t('settings.telegram.activateText')}</p>
        <div className="button-row">
          {link && (
            <a className="btn btn-primary" href={link} target="_blank" rel="noopener noreferrer">
              {t('settings.telegram.open')}
            </a>
          )}
          <button type="button" className="btn btn-ghost" onClick={() => setModal(null)}>
            {t('settings.close')}
          </button>
        </div>
        <p className="field-hint">{t('settings.telegram.activateWaiting')}</p>
      </Modal>

      <Modal open={modal === 'stop'} title={t('settings.telegram.stopTitle')} onClose={() => setModal(null)}>
        <p>{t('settings.telegram.stopText')}</p>
        <div className="button-row">
          <SubmitButton type="button" variant="danger" busy={busy} onClick={unsubscribe}>
            {t('settings.telegram.stopConfirm')}
          </SubmitButton>
          <button type="button" className="btn btn-ghost" onClick={() => setModal(null)} disabled={busy}>
            {t('settings.cancel')}
          </button>
        </div>
      </Modal>
    </SectionCard>
  );
}
