import { nameIssue, normalizeName } from '../../../src/lib/shared/person-name.ts';
import type { PersonContext } from '../context.ts';
import { AppError, invalidInput } from '../errors.ts';
import { operatorOf } from './access.ts';
import { type AccountAction, applyAccountAction } from './account-actions.ts';
import type { OperatorsDeps } from './deps.ts';
import { personOf, personSummary } from './people.ts';
import { reasonOf, requireSecondFactor } from './second-factor.ts';

// An administrator's action on a person from the console: the role, the reason, the person, the
// second factor, then the same account action as the CLI's (account-actions.ts), which writes
// the change, ends the sessions it must, notifies where the spec allows and keeps its audit row
// in one transaction.

export interface PersonActionInput {
  publicId: string;
  action: AccountAction;
  reason: string | undefined;
  code: string | undefined;
  /** verify_identity: the name on the document the operator checked. */
  fullName?: string | undefined;
}

function fullNameOf(input: PersonActionInput): string | undefined {
  if (input.action !== 'verify_identity' || input.fullName === undefined) return undefined;
  if (nameIssue(input.fullName))
    throw invalidInput([{ field: 'full_name', message: 'A full name: letters, two at least.' }]);
  return normalizeName(input.fullName);
}

export async function actOnPerson(deps: OperatorsDeps, ctx: PersonContext, input: PersonActionInput) {
  const operator = operatorOf(ctx, 'admin');
  const reason = reasonOf(input.reason);
  const fullName = fullNameOf(input);
  const row = await personOf(deps, input.publicId);
  // The console is for other people's accounts: nobody unbans, verifies or resets themselves.
  if (row.id === operator.userId)
    throw new AppError('FORBIDDEN', 'Operators do not act on their own account; ask another administrator.');
  const target = { action: input.action, targetType: 'user' as const, targetId: row.publicId };
  await requireSecondFactor(deps, ctx, operator, { code: input.code, reason, target });
  const result = await applyAccountAction(deps.actions, ctx, {
    user: row,
    action: input.action,
    reason,
    fullName,
    by: operator.actor,
  });
  return { ...result, person: personSummary(await personOf(deps, input.publicId)) };
}
