import type { DatabaseLike } from '../../../db/database.ts';
import type { OperatorTargetType } from '../../../db/schema/index.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError, type FieldIssue, invalidInput } from '../errors.ts';
import type { TwoFactorService } from '../two-factor/two-factor.ts';
import type { Operator } from './access.ts';
import type { AuditLog } from './audit.ts';

// Every change an operator makes needs the second factor (docs/decisions/151-operator-second-factor.md):
// an enabled factor on the operator's account and a current code (or a recovery code) sent with the
// request, checked and spent by the two-factor service as a sendout's or a release's code is. No
// step-up: the existing mechanism has none, so each change carries its own code. A refusal for a
// missing factor, a missing code or a wrong one is a row of the audit log too.

export const REASON_MAX_LENGTH = 500;

export interface ActionTarget {
  action: string;
  targetType: OperatorTargetType;
  targetId: string | null;
}

/** The operator's reason, trimmed; 400 on `reason` when blank or too long. */
export function reasonOf(reason: string | undefined): string {
  const trimmed = reason?.trim() ?? '';
  const issue = (message: string): FieldIssue => ({ field: 'reason', message });
  if (trimmed === '') throw invalidInput([issue('Say why: the reason is kept in the audit log.')]);
  if (trimmed.length > REASON_MAX_LENGTH) throw invalidInput([issue(`At most ${REASON_MAX_LENGTH} characters.`)]);
  return trimmed;
}

function refusalOf(check: 'failed' | 'disabled', code: string | undefined): { error: AppError; why: string } {
  if (check === 'disabled')
    return {
      why: 'two_factor_not_enabled',
      error: new AppError(
        'TWO_FACTOR_NOT_ENABLED',
        'Operator actions need two-factor authentication: turn it on in your settings first.',
      ),
    };
  if (code?.trim())
    return {
      why: 'two_factor_invalid',
      error: new AppError('TWO_FACTOR_INVALID', 'This code is not correct.', {
        field: 'code',
        key: 'two_factor_invalid',
      }),
    };
  return {
    why: 'two_factor_required',
    error: new AppError('TWO_FACTOR_REQUIRED', 'Enter the code from your authenticator app.', {
      field: 'code',
      key: 'two_factor_required',
    }),
  };
}

/** Passes with a right code; otherwise writes the refusal to the audit log and throws it. */
export async function requireSecondFactor(
  deps: { db: DatabaseLike; twoFactor: TwoFactorService; audit: AuditLog },
  ctx: PersonContext,
  operator: Operator,
  { code, reason, target }: { code: string | undefined; reason: string | null; target: ActionTarget },
): Promise<void> {
  const check = await deps.twoFactor.verifyEnabled(ctx, { userId: operator.userId, code });
  if (check === 'passed') return;
  const { error, why } = refusalOf(check, code);
  await immediate(deps.db, () =>
    deps.audit.record(operator.actor, {
      ...target,
      outcome: 'refused',
      reason,
      details: { refused: why },
      requestId: ctx.requestId,
    }),
  );
  throw error;
}
