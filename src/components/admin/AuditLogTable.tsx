import { ADMIN_TEXT, utcTime } from './admin-text.ts';

// The operators' audit log as a table, rendered on the server (no script): newest first, each row
// when, who, what (a refusal marked), on what (a link to it in the console), why and the request id
// that ties it to the server's log lines. Nothing here can change a row: the log is append-only.

const TEXT = ADMIN_TEXT.audit;
const C = TEXT.columns;

export interface AuditRowView {
  id: number;
  /** Unix ms. */
  at: number;
  operator: { type: 'user' | 'cli'; id: string | null; name: string };
  action: string;
  outcome: string;
  target: { type: 'user' | 'trade' | 'sendout' | 'ledger'; id: string | null };
  reason: string | null;
  requestId: string | null;
}

/** Where a target is looked at in the console. */
export interface AuditLinks {
  people: string;
  trades: string;
  sendouts: string;
  ledger: string;
}

function targetHref(target: AuditRowView['target'], links: AuditLinks): string | undefined {
  if (target.type === 'ledger') return links.ledger;
  if (!target.id) return undefined;
  if (target.type === 'user') return `${links.people}?q=${encodeURIComponent(target.id)}`;
  if (target.type === 'trade') return `${links.trades}?hash=${encodeURIComponent(target.id)}`;
  return links.sendouts;
}

function Target({ target, links }: { target: AuditRowView['target']; links: AuditLinks }) {
  const href = targetHref(target, links);
  const text = target.id ?? target.type;
  return href ? (
    <a className="text-link" href={href}>
      <code>{text}</code>
    </a>
  ) : (
    <code>{text}</code>
  );
}

export default function AuditLogTable({ rows, links }: { rows: AuditRowView[]; links: AuditLinks }) {
  return (
    <table className="admin-money-table admin-money-cards" data-audit-table>
      <thead>
        <tr>
          <th scope="col">{C.when}</th>
          <th scope="col">{C.operator}</th>
          <th scope="col">{C.action}</th>
          <th scope="col">{C.target}</th>
          <th scope="col">{C.reason}</th>
          <th scope="col">{C.request}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} data-audit-row={row.action} data-outcome={row.outcome}>
            <td data-label={C.when}>{utcTime(row.at)}</td>
            <td data-label={C.operator}>
              <bdi>{row.operator.name}</bdi>
              {row.operator.type === 'cli' && <span className="muted"> (cli)</span>}
            </td>
            <td data-label={C.action}>
              <code>{row.action}</code>
              {row.outcome !== 'done' && (
                <span className="admin-money-state admin-money-state-failed"> {TEXT.refused}</span>
              )}
            </td>
            <td data-label={C.target}>
              <Target target={row.target} links={links} />
            </td>
            <td data-label={C.reason} className="admin-money-reason">
              {row.reason ?? '—'}
            </td>
            <td data-label={C.request}>
              <code className="admin-money-request">{row.requestId ?? '—'}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
