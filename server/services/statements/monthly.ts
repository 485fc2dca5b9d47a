import type { PersonContext } from '../context.ts';
import { invalidInput } from '../errors.ts';
import type { StatementsDeps } from './deps.ts';
import { monthlyCurrencies } from './document.ts';
import { isoTime, isSettled, monthOf, parsePeriod, SETTLE_MS } from './period.ts';
import { headerOf, type SignedStatement, signed } from './sign.ts';

/**
 * A month's statement, signed: opening and closing balances per currency and account, and the
 * month's movements by kind, computed from the append-only ledger. Only a month that has ended
 * (and settled, period.ts): the same month then gives the same numbers, and Ed25519 being
 * deterministic, the same signature, every time it is asked for.
 */
export async function monthlyStatement(
  deps: StatementsDeps,
  ctx: PersonContext,
  { period }: { period: string },
): Promise<SignedStatement> {
  const month = parsePeriod(period);
  if (!month) throw invalidInput([{ field: 'period', message: 'must be a month as YYYY-MM' }]);
  const now = deps.now();
  if (!isSettled(month, now)) {
    const message =
      month.from > monthOf(now).from
        ? 'is in the future'
        : `has not ended yet: its statement is ready ${SETTLE_MS / 60_000} minutes after the month ends`;
    throw invalidInput([{ field: 'period', message }]);
  }
  const { user } = ctx.auth;
  const [key, opening, closing, movements] = await Promise.all([
    deps.key(),
    deps.repo.balancesBefore(user.id, month.from),
    deps.repo.balancesBefore(user.id, month.to),
    deps.repo.movements(user.id, month.from, month.to),
  ]);
  return signed(
    {
      ...headerOf(deps, key, user),
      kind: 'monthly',
      period: month.period,
      from: isoTime(month.from),
      to: isoTime(month.to),
      currencies: monthlyCurrencies(opening, closing, movements),
    },
    key,
  );
}

/** The months whose statements the monthly job announced, from the person's first month on. */
export async function statementMonths(
  deps: StatementsDeps,
  ctx: PersonContext,
): Promise<{ months: { period: string; readyAt: string }[] }> {
  const rows = await deps.repo.monthsSince(monthOf(ctx.auth.user.createdAt).period);
  return { months: rows.map((row) => ({ period: row.period, readyAt: isoTime(row.readyAt) })) };
}
