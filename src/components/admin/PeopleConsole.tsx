import { useMemo } from 'react';
import { tIsolated } from '../../lib/isolated.tsx';
import type { IslandMessages } from '../../lib/shared/i18n/island-messages.ts';
import { PeopleActions } from './PeopleActions.tsx';
import { PeopleFile, StatusBadge } from './PeopleFile.tsx';
import { PeopleSecurity } from './PeopleSecurity.tsx';
import { AdminFormatContext, adminFormat, useAdminFormat } from './use-admin-format.ts';
import { type PersonFileData, usePersonFile } from './use-person-file.ts';

// The island of the console's People screen (src/pages/[...locale]/admin/index.astro): one
// person's file, which an administrator acts on and which reloads after each action.

interface Props {
  locale: string;
  lang: string;
  messages: IslandMessages;
  role: 'admin' | 'moderator';
  file: PersonFileData;
}

export default function PeopleConsole({ locale, lang, messages, role, file }: Props) {
  const format = useMemo(() => adminFormat(locale, lang, messages), [locale, lang, messages]);
  return (
    <AdminFormatContext.Provider value={format}>
      <PersonScreen initial={file} role={role} />
    </AdminFormatContext.Provider>
  );
}

function PersonScreen({ initial, role }: { initial: PersonFileData; role: 'admin' | 'moderator' }) {
  const { t, when } = useAdminFormat();
  const { file, notice, act } = usePersonFile(initial);
  const { person } = file;
  const roles = Object.entries(person.roles)
    .filter(([, on]) => on)
    .map(([name]) => t(`admin.file.role.${name}`));
  return (
    <div className="admin-file" data-person-file={person.publicId}>
      <header className="card admin-section admin-person">
        <h2 className="h3">
          <bdi>{person.username}</bdi> <StatusBadge status={person.status} />
        </h2>
        <p className="admin-person-line">
          <bdi>{person.email}</bdi> · <code className="admin-code">{person.publicId}</code> ·{' '}
          {t(`admin.role.${person.role}`)}
          {roles.length > 0 && ` · ${roles.join(', ')}`}
        </p>
        <p className="muted">
          {tIsolated(t, 'admin.file.joined', { date: when(person.createdAt) })} ·{' '}
          {tIsolated(t, 'admin.file.lastSeen', { date: when(person.lastSeenAt) })}
        </p>
        {notice && (
          <p
            className={notice.error ? 'alert alert-error' : 'alert alert-success'}
            role={notice.error ? 'alert' : 'status'}
            data-admin-notice
          >
            {notice.text}
          </p>
        )}
      </header>
      {role === 'admin' && <PeopleActions file={file} act={act} />}
      <PeopleFile file={file} />
      <PeopleSecurity file={file} />
    </div>
  );
}
