import { createEscrow } from './escrow.ts';
import { createLedgerCore, type LedgerDeps } from './execute.ts';
import { createPost } from './post.ts';
import { createLedgerReads } from './read.ts';

// The ledger (issue 5, docs/architecture.md "Ledger"): the one module that writes postings, one
// verb per file: `post.ts` (deposits, sendouts, transfers, conversions, corrections), `escrow.ts`
// (lock, release, return), `read.ts` (balances, accounts, history); each writes through the
// transaction, audit row and after-commit event of `execute.ts`. Every public call is
// `verb(ctx, input)` with the ServiceContext of server/services/context.ts.

export type { AccountRef, SystemAccountKind } from './accounts.ts';
export {
  accountKey,
  earningsOf,
  escrowOf,
  kioskBalanceOf,
  merchantBalanceOf,
  refOfRow,
  systemAccount,
  walletOf,
} from './accounts.ts';
export type { HistoryInput } from './read.ts';
export type {
  DirectKind,
  LedgerPostedEvent,
  LedgerTransaction,
  Leg,
  LockEscrowInput,
  PostInput,
  ReleaseEscrowInput,
  ReturnEscrowInput,
  UserHistoryEntry,
} from './types.ts';
export { DIRECT_KINDS, HISTORY_PAGE_SIZE, LEDGER_CHANNEL, LEDGER_POSTED } from './types.ts';

export function createLedgerService(deps: LedgerDeps) {
  const core = createLedgerCore(deps);
  return {
    post: createPost(core),
    ...createEscrow(core),
    ...createLedgerReads(core),
  };
}

export type LedgerService = ReturnType<typeof createLedgerService>;
