import { eq } from 'drizzle-orm';
import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import { users } from '../../../db/schema/index.ts';
import { immediate, type ServiceContext } from '../context.ts';
import type { NotifyInput } from '../notifications/view.ts';
import type { AuditActor, AuditLog } from './audit.ts';

// What an operator may do to an account, written once for both ways in: the console's API
// (person-actions.ts, after the role and second-factor checks) and `npm run admin -- user:…`
// (server/admin/user-access.ts, user-verify.ts). Each action is one transaction with its audit
// row; a restriction ends the sessions in it too, so no request of an open session runs after
// the change with what the account had before.

export const ACCOUNT_ACTIONS = [
  'ban',
  'suspend',
  'reinstate',
  'reset_two_factor',
  'end_sessions',
  'verify_identity',
  'verify_address',
] as const;
export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];

/** The account an action is about, as the lookups find it. */
export interface TargetAccount {
  id: number;
  publicId: string;
  email: string;
  status: 'active' | 'suspended' | 'banned';
}

export interface AccountActionDeps {
  db: DatabaseLike;
  now: () => number;
  audit: AuditLog;
  /** Ends every session of the person (server/services/accounts/sessions.ts `invalidateAll`). */
  endSessions: (ctx: ServiceContext, userId: number) => Promise<number>;
  /** Removes the person's second factor; false when there was none. */
  removeTwoFactor: (userId: number) => Promise<boolean>;
  /** Tells the person, where the spec's notification types allow (verification only). */
  notify: (ctx: ServiceContext, input: NotifyInput) => Promise<unknown>;
}

export interface AccountActionInput {
  user: TargetAccount;
  action: AccountAction;
  reason: string | null;
  /** verify_identity: the name on the document, already checked and normalised. */
  fullName?: string | undefined;
  by: AuditActor;
}

export interface AccountActionResult {
  action: AccountAction;
  user: string;
  /** False when the account already was as asked (a second ban; reset with no factor set up). */
  changed: boolean;
  sessionsEnded: number;
}

type UserValues = Partial<typeof users.$inferInsert>;

/** What each action writes on the user row; null for the actions that write no column. */
function valuesOf(action: AccountAction, at: number, fullName: string | undefined): UserValues | null {
  switch (action) {
    case 'ban':
      return { status: 'banned' };
    case 'suspend':
      return { status: 'suspended' };
    case 'reinstate':
      return { status: 'active' };
    case 'verify_identity':
      return { idVerifiedAt: at, ...(fullName === undefined ? {} : { fullName }) };
    case 'verify_address':
      return { addressVerifiedAt: at };
    default:
      return null;
  }
}

/** Whether the action changes the account as it is now. */
function changes(action: AccountAction, user: TargetAccount): boolean {
  if (action === 'ban') return user.status !== 'banned';
  if (action === 'suspend') return user.status !== 'suspended';
  if (action === 'reinstate') return user.status !== 'active';
  return true;
}

const ENDS_SESSIONS: ReadonlySet<AccountAction> = new Set(['ban', 'suspend', 'end_sessions']);

/** The verification notice: the spec's `verification_reviewed`, approved, on the verification page. */
const verifiedNotice = (userId: number): NotifyInput => ({
  userId,
  type: 'verification_reviewed',
  link: '/verification',
  message: { key: 'verification_approved' },
});

/** One action on one account, with its audit row, in one transaction. */
export function applyAccountAction(
  deps: AccountActionDeps,
  ctx: ServiceContext,
  { user, action, reason, fullName, by }: AccountActionInput,
): Promise<AccountActionResult> {
  const database = asDatabase(deps.db);
  return immediate(deps.db, async () => {
    const at = deps.now();
    let changed = changes(action, user);
    let sessionsEnded = 0;
    const values = valuesOf(action, at, fullName);
    if (values) await database.run(database.orm.update(users).set(values).where(eq(users.id, user.id)));
    if (action === 'reset_two_factor') changed = await deps.removeTwoFactor(user.id);
    if (ENDS_SESSIONS.has(action) || (action === 'reset_two_factor' && changed))
      sessionsEnded = await deps.endSessions(ctx, user.id);
    if (action === 'verify_identity' || action === 'verify_address') await deps.notify(ctx, verifiedNotice(user.id));
    await deps.audit.record(by, {
      action,
      targetType: 'user',
      targetId: user.publicId,
      reason,
      details: { changed, sessionsEnded, ...(fullName === undefined ? {} : { fullName }) },
      requestId: ctx.requestId,
    });
    return { action, user: user.publicId, changed, sessionsEnded };
  });
}
