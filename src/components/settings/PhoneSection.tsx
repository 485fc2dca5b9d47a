import { useState } from 'react';
import { apiGet } from '../../lib/api-client.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';
import { FormAlert, fieldAria, SectionCard, StatusLine, SubmitButton } from './ui.tsx';
import { type PhoneFormInput, type PhoneFormState, usePhoneForm } from './use-phone-form.ts';

// Phone verification (spec sections 4 and 7): none → code sent → verified. A failed send shows
// the message and drops the code-sent state; a 429 says when to ask again and holds the buttons
// until then.

/** A number inside a sentence keeps its left-to-right order in Hebrew (Unicode isolates). */
const isolated = (phone: string) => `\u2066${phone}\u2069`;

type PhoneState = { kind: 'none' } | { kind: 'sent'; phone: string } | { kind: 'verified'; phone: string | null };

export function PhoneSection({ verified, verifiedNumber }: { verified: boolean; verifiedNumber: string | null }) {
  const { t } = useSettings();
  const [state, setState] = useState<PhoneState>(
    verified ? { kind: 'verified', phone: verifiedNumber } : { kind: 'none' },
  );
  const [done, setDone] = useState<string>();

  return (
    <SectionCard id="phone" title={t('settings.phone.title')} lead={t('settings.phone.lead')}>
      {state.kind === 'verified' ? (
        <VerifiedPhone
          phone={state.phone}
          done={done}
          onRemoved={() => {
            setState({ kind: 'none' });
            setDone(undefined);
          }}
        />
      ) : (
        <PhoneForm
          sentTo={state.kind === 'sent' ? state.phone : undefined}
          onSent={(phone) => setState({ kind: 'sent', phone })}
          onReset={() => setState({ kind: 'none' })}
          onVerified={(phone) => {
            setState({ kind: 'verified', phone });
            setDone(t('settings.phone.verifiedNow'));
          }}
        />
      )}
    </SectionCard>
  );
}

function VerifiedPhone({ phone, done, onRemoved }: { phone: string | null; done?: string; onRemoved: () => void }) {
  const { t, locale, lang } = useSettings();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);

  const remove = async () => {
    setBusy(true);
    // A GET that changes state (the spec's shape): the server wants the CSRF header on it.
    const result = await apiGet(localized('/rest/v1/users/reset-phone', locale), { csrf: true });
    setBusy(false);
    if (result.ok) onRemoved();
    else setFailure(failureOf(result, [], { t, lang }));
  };

  return (
    <div className="stack-sm">
      <FormAlert message={failure.summary} />
      <p className="state-line">
        <span className="badge badge-on">{t('settings.phone.verifiedBadge')}</span>
        <span>
          {phone ? t('settings.phone.verifiedNumber', { phone: isolated(phone) }) : t('settings.phone.verified')}
        </span>
      </p>
      <StatusLine message={done} />
      {confirming ? (
        <div className="confirm-box">
          <p>{t('settings.phone.removeConfirm')}</p>
          <div className="button-row">
            <SubmitButton type="button" variant="danger" busy={busy} onClick={remove}>
              {t('settings.phone.remove')}
            </SubmitButton>
            <button type="button" className="btn btn-ghost" onClick={() => setConfirming(false)} disabled={busy}>
              {t('settings.cancel')}
            </button>
          </div>
        </div>
      ) : (
        <div className="button-row">
          <button type="button" className="btn btn-secondary" onClick={() => setConfirming(true)}>
            {t('settings.phone.remove')}
          </button>
        </div>
      )}
    </div>
  );
}

function PhoneForm(props: PhoneFormInput) {
  const form = usePhoneForm(props);
  const { sentTo } = props;
  return (
    <div className="stack-sm">
      <FormAlert message={form.failure.summary} />
      <PhoneNumberForm form={form} sentTo={sentTo} />
      <StatusLine message={form.sentMessage} />
      {sentTo !== undefined && <PhoneCodeForm form={form} sentTo={sentTo} />}
    </div>
  );
}

/** The number with "send" (SMS), "call me" and, once a code is sent, "change number". */
function PhoneNumberForm({ form, sentTo }: { form: PhoneFormState; sentTo: string | undefined }) {
  const { t } = useSettings();
  const { busy, held } = form;
  const phoneError = form.failure.fields.phone;
  return (
    <form
      className="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void form.send('sms');
      }}
    >
      <div className="field">
        <label htmlFor="settings-phone">{t('settings.phone.number')}</label>
        <input
          {...fieldAria('settings-phone', phoneError, true)}
          className="input"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          maxLength={40}
          value={form.phone}
          onChange={(e) => form.setPhone(e.target.value)}
          readOnly={sentTo !== undefined}
        />
        <p className="field-hint" id="settings-phone-hint">
          {t('settings.phone.numberHint')}
        </p>
        <p className="field-error" id="settings-phone-error">
          {phoneError}
        </p>
      </div>
      <div className="button-row">
        <SubmitButton busy={busy === 'sms'} disabled={busy !== null || held} variant={sentTo ? 'secondary' : 'primary'}>
          {sentTo ? t('settings.phone.resend') : t('settings.phone.send')}
        </SubmitButton>
        <SubmitButton
          type="button"
          variant="ghost"
          busy={busy === 'call'}
          disabled={busy !== null || held}
          onClick={() => void form.send('call')}
        >
          {t('settings.phone.call')}
        </SubmitButton>
        {sentTo !== undefined && (
          <button type="button" className="btn btn-ghost" onClick={form.changeNumber}>
            {t('settings.phone.changeNumber')}
          </button>
        )}
      </div>
    </form>
  );
}

/** The code that came by SMS or call, with "confirm". */
function PhoneCodeForm({ form, sentTo }: { form: PhoneFormState; sentTo: string }) {
  const { t } = useSettings();
  const codeError = form.failure.fields.phoneCode;
  return (
    <form className="form" noValidate onSubmit={form.confirm}>
      <div className="field">
        <label htmlFor="settings-phone-code">{t('settings.phone.code')}</label>
        <div className="inline-row">
          <input
            {...fieldAria('settings-phone-code', codeError, true)}
            ref={form.codeInput}
            className="input input-code"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={20}
            value={form.code}
            onChange={(e) => form.setCode(e.target.value)}
          />
          <SubmitButton busy={form.busy === 'confirm'} disabled={form.busy !== null}>
            {t('settings.phone.confirm')}
          </SubmitButton>
        </div>
        <p className="field-hint" id="settings-phone-code-hint">
          {t('settings.phone.codeHint', { phone: isolated(sentTo) })}
        </p>
        <p className="field-error" id="settings-phone-code-error">
          {codeError}
        </p>
      </div>
    </form>
  );
}
