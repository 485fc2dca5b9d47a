import { tIsolated } from '../../lib/isolated.tsx';
import { Facts, Section } from './PeopleFile.tsx';
import { useAdminFormat } from './use-admin-format.ts';
import type { PersonFileData } from './use-person-file.ts';

// The administrators' part of a person's file (decision 150): devices, live sessions and the
// ledger's recent movements. Rendered only when the API sent them; a moderator's file has none.

export function PeopleSecurity({ file }: { file: PersonFileData }) {
  const { t, when, crypto } = useAdminFormat();
  const none = <p className="muted">{t('admin.file.none')}</p>;
  return (
    <>
      {file.devices && (
        <Section title={t('admin.file.devices')} name="devices">
          {file.devices.length === 0 ? (
            none
          ) : (
            <Facts
              rows={file.devices.map((d, i) => [
                `${[d.browser, d.os].filter(Boolean).join(' · ') || t('admin.file.unknownDevice')} #${i + 1}`,
                <span key="d">
                  <bdi>{d.ip}</bdi> {[d.city, d.country].filter(Boolean).join(', ')} · <code>{d.status}</code> ·{' '}
                  <bdi>{when(d.createdAt)}</bdi>
                </span>,
              ])}
            />
          )}
        </Section>
      )}
      {file.sessions && (
        <Section title={t('admin.file.sessions')} name="sessions">
          {file.sessions.length === 0 ? (
            none
          ) : (
            <Facts
              rows={file.sessions.map((s) => [
                s.userAgent,
                <span key="s">
                  <bdi>{s.ip}</bdi> · {tIsolated(t, 'admin.file.lastUsed', { date: when(s.lastUsedAt) })}
                </span>,
              ])}
            />
          )}
        </Section>
      )}
      {file.ledger && (
        <Section title={t('admin.file.ledger')} name="ledger">
          {file.ledger.length === 0 ? (
            none
          ) : (
            <ul className="admin-list">
              {file.ledger.map((m, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: one transaction posts to several accounts
                <li key={`${m.transactionId}-${i}`}>
                  <code className="admin-code">{m.kind}</code>
                  <span>{m.account}</span>
                  <bdi className={m.minor < 0 ? 'admin-out' : 'admin-in'}>{crypto(m, true)}</bdi>
                  <bdi className="muted">{when(m.createdAt)}</bdi>
                  {m.memo && <bdi className="muted">{m.memo}</bdi>}
                </li>
              ))}
            </ul>
          )}
        </Section>
      )}
    </>
  );
}
