import { useState } from 'react';
import { OperatorConfirm } from './OperatorConfirm.tsx';
import { Section } from './PeopleFile.tsx';
import { useAdminFormat } from './use-admin-format.ts';
import type { PersonAction, PersonFileData } from './use-person-file.ts';

// The administrators' actions on a person (issue 25): each opens the second-factor dialog, which
// asks why and for a current code; the file reloads afterwards and shows the new status. Only the
// actions that change something now are offered (a banned person is reinstated, not banned again).

const LABELS: Record<PersonAction, string> = {
  suspend: 'admin.action.suspend',
  ban: 'admin.action.ban',
  reinstate: 'admin.action.reinstate',
  'end-sessions': 'admin.action.endSessions',
  'reset-two-factor': 'admin.action.resetTwoFactor',
  'verify-identity': 'admin.action.verifyIdentity',
  'verify-address': 'admin.action.verifyAddress',
};

function offered(file: PersonFileData): PersonAction[] {
  const { person, verification } = file;
  const actions: PersonAction[] = [];
  if (person.status === 'active') actions.push('suspend', 'ban');
  else actions.push('reinstate', ...(person.status === 'suspended' ? (['ban'] as const) : []));
  actions.push('end-sessions');
  if (person.twoFactor) actions.push('reset-two-factor');
  if (verification.identityVerifiedAt === null) actions.push('verify-identity');
  if (verification.addressVerifiedAt === null) actions.push('verify-address');
  return actions;
}

export function PeopleActions({
  file,
  act,
}: {
  file: PersonFileData;
  act: (
    action: PersonAction,
    label: string,
    body: { reason: string; code: string; full_name?: string },
  ) => Promise<{ error?: string }>;
}) {
  const { t } = useAdminFormat();
  const [open, setOpen] = useState<PersonAction>();
  const [fullName, setFullName] = useState('');
  const label = open ? t(LABELS[open]) : '';
  const labels = {
    reason: t('admin.confirm.reason'),
    code: t('admin.confirm.code'),
    confirm: t('admin.confirm.confirm'),
    cancel: t('admin.confirm.cancel'),
    codeHint: t('admin.confirm.codeHint'),
  };
  const nameField = (
    <label className="field">
      <span className="field-label">{t('admin.actions.fullName')}</span>
      <input
        className="input"
        name="full_name"
        maxLength={200}
        value={fullName}
        onChange={(event) => setFullName(event.currentTarget.value)}
      />
    </label>
  );
  return (
    <Section title={t('admin.actions.title')} name="actions">
      <p className="muted">{t('admin.actions.hint')}</p>
      <div className="admin-actions">
        {offered(file).map((action) => (
          <button
            key={action}
            type="button"
            className={`btn btn-secondary${action === 'ban' || action === 'suspend' ? ' admin-danger' : ''}`}
            data-person-action={action}
            onClick={() => {
              setFullName(file.verification.fullName ?? '');
              setOpen(action);
            }}
          >
            {t(LABELS[action])}
          </button>
        ))}
      </div>
      <OperatorConfirm
        open={open !== undefined}
        title={t('admin.actions.dialogTitle', { action: label, username: file.person.username })}
        labels={labels}
        {...(open === 'verify-identity' ? { extra: nameField } : {})}
        onConfirm={(input) =>
          open
            ? act(
                open,
                label,
                open === 'verify-identity' && fullName.trim() ? { ...input, full_name: fullName.trim() } : input,
              )
            : Promise.resolve({})
        }
        onClose={() => setOpen(undefined)}
      />
    </Section>
  );
}
