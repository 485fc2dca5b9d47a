import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { AuditActor } from './audit.ts';

// Who may use the console's API (docs/decisions/150-operator-console-access.md): administrators
// everything; moderators the read-only lookups of people and trades they need for disputes;
// anyone else, and a staff account that is suspended or banned, nothing.

/** The parts of the console: what only administrators may use, and what moderators may read too. */
export type OperatorLevel = 'staff' | 'admin';

export interface Operator {
  userId: number;
  isAdmin: boolean;
  actor: AuditActor;
}

/** The operator behind `ctx`, or 403 with a code the console tells apart. */
export function operatorOf(ctx: PersonContext, level: OperatorLevel): Operator {
  const { user } = ctx.auth;
  const staff = user.status === 'active' && (user.role === 'moderator' || user.role === 'admin');
  if (!staff)
    throw new AppError('FORBIDDEN', 'Only moderators and administrators may use the operator console.', {
      key: 'operators_only',
    });
  const isAdmin = user.role === 'admin';
  if (level === 'admin' && !isAdmin)
    throw new AppError('FORBIDDEN', 'Only administrators may do this; moderators look people and trades up.', {
      key: 'operators_admins_only',
    });
  return { userId: user.id, isAdmin, actor: { type: 'user', publicId: user.publicId, name: user.username } };
}
