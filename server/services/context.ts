import { asDatabase, type DatabaseLike } from '../../db/database.ts';
import type { SessionRow, UserProfileRow, UserRow } from './shared/account-types.ts';

// What every service method receives first: who acts, and the transaction it runs in when a
// caller already holds one. Services never see HTTP; the routes build a context from the session
// (server/http/auth.ts), jobs and the admin CLI from their own names.

/** Who acts, as audit rows record it; a visitor (nobody signed in) only ever reads. */
export type Actor =
  | { type: 'user'; userId: number }
  | { type: 'system'; name: string }
  | { type: 'operator'; name: string }
  | { type: 'visitor' };

/** An actor who may change things (the ledger's audit refuses a visitor). */
export type AccountableActor = Exclude<Actor, { type: 'visitor' }>;

/** A signed-in person as their session resolved them. */
export interface AuthState {
  session: SessionRow;
  user: UserRow;
  profile: UserProfileRow;
}

/** An open transaction: what must wait for its commit (publishing events) is handed to it. */
export interface Transaction {
  afterCommit(publish: () => void): void;
}

export interface ServiceContext {
  actor: Actor;
  /** The signed-in person behind a `user` actor, when a request made the call. */
  auth?: AuthState;
  /** Ties the audit rows and logs of one request together. */
  requestId?: string;
  /**
   * The country the request comes from (ISO 3166-1 alpha-2): its address's, else DEFAULT_COUNTRY
   * (server/services/places). Only requests have one; jobs and operators leave it out.
   */
  visitorCountryIso?: string;
  /**
   * The caller's open transaction (a trade transition locking escrow): the callee writes inside
   * it and hands its events to `afterCommit`, so nothing is announced that may still roll back.
   */
  tx?: Transaction;
}

/** A signed-in person's context: `auth` is always there. */
export type PersonContext = ServiceContext & { actor: { type: 'user'; userId: number }; auth: AuthState };

/** The context of a signed-in person's request. */
export function personContext(auth: AuthState, requestId?: string): PersonContext {
  return { actor: { type: 'user', userId: auth.user.id }, auth, ...(requestId ? { requestId } : {}) };
}

/** The context of a request nobody signed in to. */
export function visitorContext(requestId?: string): ServiceContext {
  return { actor: { type: 'visitor' }, ...(requestId ? { requestId } : {}) };
}

/** The context of a job or an operator command. */
export function systemContext(name: string, type: 'system' | 'operator' = 'system'): ServiceContext {
  return { actor: { type, name } };
}

/**
 * `body` in one immediate transaction (db/access.ts: the write lock taken at BEGIN, other work on
 * the connection waits for the end); whatever the body hands to `tx.afterCommit` runs once it
 * committed, in order, and not at all when it rolled back.
 */
export function immediate<T>(db: DatabaseLike, body: (tx: Transaction) => Promise<T> | T): Promise<T> {
  return asDatabase(db).sql.transaction(async (afterCommit) => body({ afterCommit }));
}

/**
 * A verb module's function `(deps, ctx, input)` as the service method `(ctx, input)`: how each
 * area's `create<Area>Service` wires its one-verb-per-file modules to its dependencies.
 */
export const bindVerb =
  <D, C extends ServiceContext, I, O>(deps: D, verb: (deps: D, ctx: C, input: I) => O) =>
  (ctx: C, input: I): O =>
    verb(deps, ctx, input);

/** `body` inside the caller's transaction when the context carries one, else in its own. */
export async function withinTransaction<T>(
  db: DatabaseLike,
  ctx: ServiceContext,
  body: (tx: Transaction) => Promise<T> | T,
): Promise<T> {
  if (ctx.tx) return body(ctx.tx);
  return immediate(db, body);
}
