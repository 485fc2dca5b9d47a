import { useSettings } from './context.ts';
import { FormAlert, Modal, SectionCard, StatusLine, SubmitButton } from './ui.tsx';
import { useTelegram } from './use-telegram.ts';

// The Telegram bot (spec sections 2 and 4): subscribing gets a link and opens the "activate"
// modal; the bot's Start arrives as `telegram_status` on `telegram:<usr_…>`, which sets the state
// and closes any modal. Unsubscribing asks first ("stop telegram bot" modal) and clears the link.

export function TelegramSection({ userId, initiallySubscribed }: { userId: string; initiallySubscribed: boolean }) {
  const { t } = useSettings();
  const { subscribed, link, modal, setModal, busy, failure, done, subscribe, unsubscribe } = useTelegram(
    userId,
    initiallySubscribed,
  );
  const close = () => setModal(null);

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

      <ActivateModal open={modal === 'activate'} link={link} onClose={close} />
      <StopModal open={modal === 'stop'} busy={busy} onStop={unsubscribe} onClose={close} />
    </SectionCard>
  );
}

function ActivateModal({ open, link, onClose }: { open: boolean; link: string | undefined; onClose(): void }) {
  const { t } = useSettings();
  return (
    <Modal open={open} title={t('settings.telegram.activateTitle')} onClose={onClose}>
      <p>{t('settings.telegram.activateText')}</p>
      <div className="button-row">
        {link && (
          <a className="btn btn-primary" href={link} target="_blank" rel="noopener noreferrer">
            {t('settings.telegram.open')}
          </a>
        )}
        <button type="button" className="btn btn-ghost" onClick={onClose}>
          {t('settings.close')}
        </button>
      </div>
      <p className="field-hint">{t('settings.telegram.activateWaiting')}</p>
    </Modal>
  );
}

function StopModal({
  open,
  busy,
  onStop,
  onClose,
}: {
  open: boolean;
  busy: boolean;
  onStop(): Promise<void>;
  onClose(): void;
}) {
  const { t } = useSettings();
  return (
    <Modal open={open} title={t('settings.telegram.stopTitle')} onClose={onClose}>
      <p>{t('settings.telegram.stopText')}</p>
      <div className="button-row">
        <SubmitButton type="button" variant="danger" busy={busy} onClick={onStop}>
          {t('settings.telegram.stopConfirm')}
        </SubmitButton>
        <button type="button" className="btn btn-ghost" onClick={onClose} disabled={busy}>
          {t('settings.cancel')}
        </button>
      </div>
    </Modal>
  );
}
