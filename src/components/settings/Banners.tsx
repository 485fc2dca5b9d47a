import { useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';
import { SubmitButton } from './ui.tsx';

// The notices above the sections: a password found in leaked lists (`?compromised=1`, set by the
// sign-in page) and an e-mail address not yet confirmed.

export function CompromisedBanner() {
  const { t } = useSettings();
  return (
    <div className="banner banner-danger" role="alert">
      <p>
        <strong>{t('settings.compromised.title')}</strong> {t('settings.compromised.text')}
      </p>
      <a className="btn btn-primary" href="#password">
        {t('settings.compromised.action')}
      </a>
    </div>
  );
}

export function EmailBanner({ email }: { email: string }) {
  const { t, locale, lang } = useSettings();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [sent, setSent] = useState(false);

  const resend = async () => {
    setBusy(true);
    setFailure(noFailure);
    const result = await apiPost(localized('/rest/v1/auth/resend-verification', locale));
    setBusy(false);
    if (result.ok) setSent(true);
    else setFailure(failureOf(result, [], { t, lang }));
  };

  return (
    <div className="banner banner-info">
      <p>
        <strong>{t('settings.email.title')}</strong> {t('settings.email.text', { email })}
      </p>
      {!sent && (
        <SubmitButton type="button" variant="secondary" busy={busy} onClick={resend}>
          {t('settings.email.resend')}
        </SubmitButton>
      )}
      <p className="banner-status" role="status">
        {sent ? t('settings.email.sent', { email }) : ''}
      </p>
      <p className="banner-error" role="alert">
        {failure.summary}
      </p>
    </div>
  );
}
