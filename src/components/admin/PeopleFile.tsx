import type { ReactNode } from 'react';
import { tIsolated } from '../../lib/isolated.tsx';
import { useAdminFormat } from './use-admin-format.ts';
import type { PersonFileData, PersonTradeLine } from './use-person-file.ts';

// A person's file in the console (issue 25): who they are, verification and limits, money, recent
// trades and disputes for every operator; devices, live sessions and ledger movements only when
// the API sent them (administrators, decision 150). Names and amounts sit in <bdi> (decision 132).
// Technical names (ledger kinds, accounts, device states) stay the codes the CLI and audit log use.

export function Section({ title, children, name }: { title: string; children: ReactNode; name: string }) {
  return (
    <section className="card admin-section" data-admin-part={name}>
      <h2 className="h4">{title}</h2>
      {children}
    </section>
  );
}

export function Facts({ rows }: { rows: [label: string, value: ReactNode][] }) {
  return (
    <dl className="admin-facts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const { t } = useAdminFormat();
  return (
    <span className={`admin-badge admin-badge-${status}`} data-person-status={status}>
      {t(`admin.status.${status}`)}
    </span>
  );
}

function Verification({ file }: { file: PersonFileData }) {
  const { t, when, usd } = useAdminFormat();
  const v = file.verification;
  const done = (at: number | null) =>
    at === null ? t('admin.file.no') : t('admin.file.verifiedAt', { date: when(at) });
  const limits = v.limits;
  return (
    <Section title={t('admin.file.verification')} name="verification">
      <Facts
        rows={[
          [t('admin.file.email'), t(v.email ? 'admin.file.yes' : 'admin.file.no')],
          [t('admin.file.phone'), t(v.phone ? 'admin.file.yes' : 'admin.file.no')],
          [t('admin.file.identity'), done(v.identityVerifiedAt)],
          ...(v.fullName
            ? [[t('admin.file.fullName'), <bdi key="name">{v.fullName}</bdi>] as [string, ReactNode]]
            : []),
          [t('admin.file.address'), done(v.addressVerifiedAt)],
          [t('admin.file.twoFactor'), t(file.person.twoFactor ? 'admin.file.yes' : 'admin.file.no')],
          [
            t('admin.file.level', { level: v.level }),
            tIsolated(t, 'admin.file.limit', {
              used: usd(limits.usedUsdCents),
              limit: usd(limits.limitUsdCents),
              days: limits.windowDays,
            }),
          ],
        ]}
      />
    </Section>
  );
}

function Money({ file }: { file: PersonFileData }) {
  const { t, crypto } = useAdminFormat();
  const none = <p className="muted">{t('admin.file.none')}</p>;
  return (
    <Section title={t('admin.file.money')} name="money">
      {file.balances.length === 0 ? (
        none
      ) : (
        <Facts rows={file.balances.map((b) => [`${b.account} · ${b.currency}`, <bdi key="a">{crypto(b)}</bdi>])} />
      )}
      <h3 className="h5">{t('admin.file.escrow')}</h3>
      {file.inEscrow.length === 0 ? (
        none
      ) : (
        <Facts rows={file.inEscrow.map((b) => [b.currency, <bdi key="a">{crypto(b)}</bdi>])} />
      )}
    </Section>
  );
}

export function TradeLink({ hash }: { hash: string }) {
  const { locale } = useAdminFormat();
  const prefix = locale === 'en' ? '' : `/${locale}`;
  return (
    <a className="text-link admin-code" href={`${prefix}/admin/trades?hash=${encodeURIComponent(hash)}`}>
      {hash}
    </a>
  );
}

function TradeLines({
  lines,
  title,
  name,
  extra,
}: {
  lines: PersonTradeLine[];
  title: string;
  name: string;
  extra?: (line: PersonTradeLine) => ReactNode;
}) {
  const { t, crypto, fiat, when } = useAdminFormat();
  return (
    <Section title={title} name={name}>
      {lines.length === 0 ? (
        <p className="muted">{t('admin.file.none')}</p>
      ) : (
        <ul className="admin-list">
          {lines.map((line) => (
            <li key={line.hash} data-trade={line.hash}>
              <TradeLink hash={line.hash} />
              <span>{t(`trade.status.${line.status}`)}</span>
              <span>{t(line.role === 'buyer' ? 'admin.file.buyer' : 'admin.file.seller')}</span>
              <bdi>{crypto(line.crypto)}</bdi>
              <bdi>{fiat(line.fiat)}</bdi>
              <bdi className="muted">{when(line.startedAt)}</bdi>
              {extra?.(line)}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Disputes({ file }: { file: PersonFileData }) {
  const { t } = useAdminFormat();
  const byHash = new Map(file.disputes.map((d) => [d.hash, d]));
  return (
    <TradeLines
      lines={file.disputes}
      title={t('admin.file.disputes')}
      name="disputes"
      extra={(line) => {
        const dispute = byHash.get(line.hash);
        if (!dispute) return null;
        return (
          <span className="muted">
            {t(dispute.resolved ? 'admin.file.resolved' : 'admin.file.open')}
            {dispute.openedByThisPerson ? ` · ${t('admin.file.openedByThem')}` : ''}
          </span>
        );
      }}
    />
  );
}

export function PeopleFile({ file }: { file: PersonFileData }) {
  const { t } = useAdminFormat();
  return (
    <>
      <Verification file={file} />
      <Money file={file} />
      <TradeLines lines={file.trades} title={t('admin.file.trades')} name="trades" />
      <Disputes file={file} />
    </>
  );
}
