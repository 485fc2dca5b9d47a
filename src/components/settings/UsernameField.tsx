import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from '../../lib/shared/input-patterns.ts';
import { useSettings } from './context.ts';
import { FormAlert, fieldAria, StatusLine, SubmitButton } from './ui.tsx';
import { type UsernameState, useUsernameField } from './use-username-field.ts';

// The username can be changed once (spec section 4): the form asks to confirm, and afterwards
// shows the name as final.

export function UsernameField({
  initialUsername,
  initiallyChanged,
}: {
  initialUsername: string;
  initiallyChanged: boolean;
}) {
  const { t } = useSettings();
  const state = useUsernameField(initialUsername, initiallyChanged);
  const id = 'settings-username';

  if (state.changed) return <FinalUsername username={state.username} done={state.done} />;

  const { confirming } = state;
  const error = state.failure.fields.username;
  return (
    <form className="form" onSubmit={state.ask} noValidate>
      <FormAlert message={state.failure.summary} />
      <div className="field">
        <label htmlFor={id}>{t('settings.username.label')}</label>
        <div className="inline-row">
          <input
            {...fieldAria(id, error, true)}
            className="input"
            value={state.draft}
            onChange={(e) => state.edit(e.target.value)}
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
      {confirming && <ConfirmUsername state={state} />}
    </form>
  );
}

function FinalUsername({ username, done }: { username: string; done: string | undefined }) {
  const { t } = useSettings();
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

function ConfirmUsername({ state }: { state: UsernameState }) {
  const { t } = useSettings();
  return (
    <div className="confirm-box" tabIndex={-1} ref={state.confirmBox}>
      <p>{t('settings.username.confirm', { username: state.draft.trim() })}</p>
      <div className="button-row">
        <SubmitButton type="button" busy={state.busy} onClick={state.save}>
          {t('settings.username.confirmButton')}
        </SubmitButton>
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => state.setConfirming(false)}
          disabled={state.busy}
        >
          {t('settings.cancel')}
        </button>
      </div>
    </div>
  );
}
