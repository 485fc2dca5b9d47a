import { useState } from 'react';
import { CRYPTO_DECIMALS } from '../../lib/shared/crypto-decimals.ts';
import { fromMinorUnits } from '../../lib/shared/money.ts';
import { ADMIN_TEXT, utcTime } from './admin-text.ts';
import { operatorPost } from './use-operator-api.ts';

// The ledger screen's island (issue 25): "Verify now" runs ledger:verify on the server (POST
// …/operators/ledger/verify; no second factor: it changes nothing, and it is audited) and shows
// the result in place of the last one (GET …/ledger/verification, read by the page): ok or failed,
// when, by whom, the counts, what the people's accounts hold and every violation found.

const TEXT = ADMIN_TEXT.ledger;

export interface LedgerCheckView {
  ok: boolean;
  violations: { rule: string; message: string }[];
  transactions: number;
  accounts: number;
  /** Minor units per currency. */
  owed: Record<'BTC' | 'USDT', number>;
  /** Unix ms. */
  checkedAt: number;
  by: { type: 'user' | 'cli'; id: string | null; name: string };
}

function Result({ check }: { check: LedgerCheckView }) {
  return (
    <div
      className={`card admin-money-result ${check.ok ? 'is-ok' : 'is-failed'}`}
      data-ledger-result={check.ok ? 'ok' : 'failed'}
    >
      <p className="admin-money-verdict">{check.ok ? TEXT.ok : `${TEXT.failed}: ${check.violations.length}`}</p>
      <dl className="admin-money-facts">
        <div>
          <dt>{TEXT.when}</dt>
          <dd data-ledger-when>{utcTime(check.checkedAt)}</dd>
        </div>
        <div>
          <dt>{TEXT.by}</dt>
          <dd data-ledger-by>
            <bdi>{check.by.name}</bdi>
            {check.by.type === 'cli' ? ' (command line)' : ''}
          </dd>
        </div>
        <div>
          <dt>{TEXT.transactions}</dt>
          <dd>{check.transactions}</dd>
        </div>
        <div>
          <dt>{TEXT.accounts}</dt>
          <dd>{check.accounts}</dd>
        </div>
        <div>
          <dt>{TEXT.owed}</dt>
          <dd>
            {(['BTC', 'USDT'] as const).map((currency) => (
              <span key={currency} className="admin-money-owed">
                {fromMinorUnits(check.owed[currency] ?? 0, CRYPTO_DECIMALS[currency])} {currency}
              </span>
            ))}
          </dd>
        </div>
      </dl>
      <h3 className="h4">{TEXT.violations}</h3>
      {check.violations.length === 0 ? (
        <p className="muted">{TEXT.noViolations}</p>
      ) : (
        <ul className="admin-money-violations" data-violations>
          {check.violations.map((violation, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: violations have no id and never reorder
            <li key={index}>
              <code>{violation.rule}</code> {violation.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export default function LedgerConsole({ last }: { last: LedgerCheckView | null }) {
  const [check, setCheck] = useState(last);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  async function verify() {
    setBusy(true);
    setError(undefined);
    const answer = await operatorPost<LedgerCheckView>('/ledger/verify');
    setBusy(false);
    if (answer.data) setCheck(answer.data);
    else setError(answer.error);
  }
  return (
    <div className="admin-money-island" data-ledger>
      <div className="card admin-money-verify">
        <p>{TEXT.verifyNote}</p>
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy}
          aria-busy={busy || undefined}
          data-verify
          onClick={() => void verify()}
        >
          {busy ? TEXT.verifying : TEXT.verify}
        </button>
      </div>
      <p className="alert alert-error" role="alert" hidden={!error} data-ledger-error>
        {error}
      </p>
      <h2 className="h3">{TEXT.last}</h2>
      <div aria-live="polite">{check ? <Result check={check} /> : <p className="card muted">{TEXT.never}</p>}</div>
    </div>
  );
}
