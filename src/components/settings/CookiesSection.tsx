import { type SubmitEvent, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { type CookieSettings, cookieCategories } from '../../lib/shared/cookie-settings.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';
import { FormAlert, SectionCard, StatusLine, SubmitButton } from './ui.tsx';

// The eight cookie categories (spec section 3) through /rest/v1/cookie-policy: signed in, the
// choice is kept with the account and set as the cookie the static pages' banner reads.

export function CookiesSection({ initial }: { initial: CookieSettings }) {
  const { t, locale, lang } = useSettings();
  const [choice, setChoice] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(noFailure);
    setDone(undefined);
    const result = await apiPost<{ settings: CookieSettings }>(localized('/rest/v1/cookie-policy', locale), {
      settings: choice,
    });
    setBusy(false);
    if (result.ok && result.data) {
      setChoice(result.data.settings);
      setDone(t('settings.cookies.saved'));
    } else setFailure(failureOf(result, [], { t, lang }));
  };

  return (
    <SectionCard id="cookies" title={t('settings.cookies.title')} lead={t('settings.cookies.lead')}>
      <form className="form" onSubmit={submit} noValidate>
        <FormAlert message={failure.summary} />
        <fieldset className="fieldset">
          <legend className="visually-hidden">{t('settings.cookies.title')}</legend>
          <div className="cookie-list">
            {cookieCategories.map((category) => (
              <label className="checkbox cookie-option" key={category}>
                <input
                  type="checkbox"
                  name={category}
                  checked={choice[category]}
                  onChange={(e) => setChoice({ ...choice, [category]: e.target.checked })}
                  aria-describedby={`cookie-${category}-text`}
                />
                <span>
                  <strong>{t(`cookies.category.${category}.name`)}</strong>
                  <span className="field-hint" id={`cookie-${category}-text`}>
                    {t(`cookies.category.${category}.description`)}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="button-row">
          <SubmitButton busy={busy}>{t('settings.cookies.save')}</SubmitButton>
        </div>
        <StatusLine message={done} />
      </form>
    </SectionCard>
  );
}
