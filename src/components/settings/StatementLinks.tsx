import { useEffect, useState } from 'react';
import { apiGet } from '../../lib/api-client.ts';
import { useSettings } from './context.ts';

// Signed statements in settings (issue 24; docs/decisions/147-signed-statements.md, docs/trust.md):
// today's balances and each closed month, signed with the platform's key, saved as the JSON files
// `node scripts/verify-statement.ts` checks. The months are asked for once the panel is shown;
// until then (and when the request fails) only today's statement is offered.

interface ClosedMonth {
  period: string;
  readyAt: string;
}

export function StatementLinks() {
  const { t, lang } = useSettings();
  const [months, setMonths] = useState<ClosedMonth[]>();
  useEffect(() => {
    const controller = new AbortController();
    void apiGet<{ months: ClosedMonth[] }>('/rest/v1/statements', { signal: controller.signal })
      .then((result) => {
        if (result.ok && result.data) setMonths(result.data.months);
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  const monthName = (period: string) =>
    new Intl.DateTimeFormat(lang, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${period}-01T00:00:00Z`),
    );
  return (
    <div className="stack-sm statement-links">
      <h3 className="subhead" id="statements-title">
        {t('settings.statements.title')}
      </h3>
      <p className="muted">
        {t('settings.statements.lead')} <code dir="ltr">node scripts/verify-statement.ts statement.json</code>
      </p>
      <ul className="statement-list" aria-labelledby="statements-title">
        <li>
          <a className="text-link" href="/rest/v1/statements/current" download="coinfair-statement.json">
            {t('settings.statements.current')}
          </a>
        </li>
        {months?.map((month) => (
          <li key={month.period}>
            <a
              className="text-link"
              href={`/rest/v1/statements/month?period=${month.period}`}
              download={`coinfair-statement-${month.period}.json`}
            >
              {t('settings.statements.month', { month: monthName(month.period) })}
            </a>
          </li>
        ))}
      </ul>
      {months?.length === 0 && <p className="muted">{t('settings.statements.none')}</p>}
    </div>
  );
}
