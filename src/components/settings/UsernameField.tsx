import { type SubmitEvent, useEffect, useRef, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from '../../lib/shared/input-patterns.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';
import { FormAlert, fieldAria, StatusLine, SubmitButton } from './ui.tsx';

// The username can be changed once (spec section 4): the form asks to confirm, and afterwards
// shows the name as final.

export function UsernameField({
  initialUsername,
  initiallyChanged,
}: {
  initialUsername: string;
  initiallyChanged: boolean;
}) {
  const { t, locale, lang } = useSettings();
  const [username, setUsername] = useState(initialUsername);
  const [changed, setChanged] = useState(initiallyChanged);
  const [draft, setDraft] = useState(initialUsername);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();
  const id = 'settings-username';
  const confirmBox = useRef<HTMLDivElement>(null);
  // The button that asked disappears: focus goes to the question instead of being lost.
  useEffect(() => {
    if (confirming) confirmBox.current?.focus();
  }, [confirming]);

  if (changed) {
    return (
      <div className="field">
        <span className="field-label">{t('settings.username.label')}</span>
        <p className="username-final">
          <strong>{username}</strong>
        </p>
        <p className="field-hint">{t('settings.username.final')}</p>
        <StatusLine message={done} />
      </div>
    );
  }

  const check = (value: string): string | undefined => {
    const name = value.trim();
    if (!USERNAME_PATTERN.test(name) || name.length < USERNAME_MIN_LENGTH || name.length > USERNAME_MAX_LENGTH) {
      return t('settings.username.rule', { min: USERNAME_MIN_LENGTH, max: USERNAME_MAX_LENGTH });
    }
    if (name === username) return t('settings.username.same');
    return undefined;
  };

  const ask = (event: SubmitEvent) => {
    event.preventDefault();
    const problem = check(draft);
    setFailure(problem ? { summary: undefined, fields: { username: problem } } : noFailure);
    if (!problem) setConfirming(true);
  };

  const save = async () => {
    setBusy(true);
    const result = await apiPost<{ username: string }>(localized('/rest/v1/users/set-username', locale), {
      username: draft.trim(),
    });
    setBusy(false);
    setConfirming(false);
    if (result.ok && result.data) {
      setUsername(result.data.username);
      setChanged(true);
      setDone(t('settings.username.saved'));
    } else {
      setFailure(failureOf(result, ['username'], { t, lang }));
    }
  };

  const error = failure.fields.username;
  return (
    <form className="form" onSubmit={ask} noValidate>
      <FormAlert message={failure.summary} />
      <div className="field">
        <label htmlFor={id}>{t('settings.username.label')}</label>
        <div className="inline-row">
          <input
            {...fieldAria(id, error, true)}
            className="input"
            value={draft}
            onChange={(e) => {
              setDraft(e.target.value);
              setConfirming(false);
            }}
            autoComplete="username"
            spellCheck={false}
            autoCapitalize="off"
            maxLength={USERNAME_MAX_LENGTH}
            readOnly={confirming}
          />
          {!confirming && (
            <SubmitButton busy={false} variant="secondary">
              {t('settings.username.change')}
            </SubmitButton>
          )}
        </div>
        <p className="field-hint" id={`${id}-hint`}>
          {t('settings.username.hint', { min: USERNAME_MIN_LENGTH, max: USERNAME_MAX_LENGTH })}
        </p>
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      </div>
      {confirming && (
        <div className="confirm-box" tabIndex={-1} ref={confirmBox}>
          <p>{t('settings.username.confirm', { username: draft.trim() })}</p>
          <div className="button-row">
            <SubmitButton type="button" busy={busy} onClick={save}>
              {t('settings.username.confirmButton')}
            </SubmitButton>
            <button type="button" className="btn btn-ghost" onClick={() => setConfirming(false)} disabled={busy}>
              {t('settings.cancel')}
            </button>
          </div>
        </div>
      )}
    </form>
  );
}
