import { asDatabase } from '../../../db/database.ts';
import type { ChainNetwork, LedgerCurrency } from '../../../db/schema/index.ts';
import { sendoutState } from '../chain/operator-sendouts.ts';
import { immediate, type PersonContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { operatorOf } from './access.ts';
import type { OperatorsDeps } from './deps.ts';
import { cryptoAmount } from './people.ts';
import { reasonOf, requireSecondFactor } from './second-factor.ts';

// Sendouts for operators (docs/decisions/152-operator-sendouts.md): the waiting ones (pending,
// or broadcast and not yet confirmed) and the failed ones, and the retry or cancel of one whose
// broadcast never answered. Administrators only; each change with a reason and a second factor.

export const SENDOUT_LISTS = ['waiting', 'failed'] as const;
export type SendoutList = (typeof SENDOUT_LISTS)[number];

interface SendoutRow {
  id: number;
  publicId: string;
  userPublicId: string;
  username: string;
  currency: LedgerCurrency;
  network: ChainNetwork;
  address: string;
  amount: number;
  fee: number;
  status: 'pending' | 'broadcast' | 'confirmed' | 'failed';
  txid: string | null;
  confirmations: number;
  requiredConfirmations: number;
  broadcastStartedAt: number | null;
  failureReason: string | null;
  createdAt: number;
  updatedAt: number;
}

const SELECT = `SELECT c.id, c.public_id AS publicId, u.public_id AS userPublicId, u.username, c.currency, c.network,
    c.address, c.amount, c.fee, c.status, c.txid, c.confirmations, c.required_confirmations AS requiredConfirmations,
    c.broadcast_started_at AS broadcastStartedAt, c.failure_reason AS failureReason, c.created_at AS createdAt,
    c.updated_at AS updatedAt
  FROM chain_transactions c JOIN users u ON u.id = c.user_id WHERE c.direction = 'out'`;
const STATUSES: Record<SendoutList, string> = {
  waiting: "c.status IN ('pending', 'broadcast')",
  failed: "c.status = 'failed'",
};

function sendoutView(row: SendoutRow, at: number) {
  const state = row.status === 'pending' ? sendoutState({ ...row, direction: 'out' }, at) : null;
  return {
    id: row.publicId,
    person: { publicId: row.userPublicId, username: row.username },
    network: row.network,
    address: row.address,
    ...cryptoAmount(row.amount, row.currency),
    fee: cryptoAmount(row.fee, row.currency).amount,
    status: row.status,
    /** pending: `unclaimed` (the job sends it soon), `in_flight`, or `stuck` (retry or cancel). */
    broadcast: state,
    txid: row.txid,
    confirmations: row.confirmations,
    requiredConfirmations: row.requiredConfirmations,
    broadcastStartedAt: row.broadcastStartedAt,
    failureReason: row.failureReason,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function listSendouts(
  deps: OperatorsDeps,
  ctx: PersonContext,
  { list, page, pageSize }: { list: SendoutList; page: number; pageSize: number },
) {
  operatorOf(ctx, 'admin');
  const rows = await asDatabase(deps.db).sql.all<SendoutRow>(
    `${SELECT} AND ${STATUSES[list]} ORDER BY c.id DESC LIMIT ? OFFSET ?`,
    [pageSize + 1, (page - 1) * pageSize],
  );
  const at = deps.now();
  return { items: rows.slice(0, pageSize).map((row) => sendoutView(row, at)), hasMore: rows.length > pageSize };
}

function conflict(outcome: 'not_stuck' | 'not_pending'): AppError {
  return outcome === 'not_stuck'
    ? new AppError(
        'SENDOUT_STATE_CONFLICT',
        'This sendout is being handed to the network or waits for its first try; it can be retried or cancelled only once its broadcast is stuck (no answer for 10 minutes).',
      )
    : new AppError(
        'SENDOUT_STATE_CONFLICT',
        'This sendout is no longer waiting: it was broadcast, confirmed or failed.',
      );
}

/** Retry (release the stuck claim) or cancel (return the hold) one sendout, with its audit row. */
export async function actOnSendout(
  deps: OperatorsDeps,
  ctx: PersonContext,
  input: { publicId: string; action: 'retry' | 'cancel'; reason: string | undefined; code?: string | undefined },
) {
  const operator = operatorOf(ctx, 'admin');
  const reason = reasonOf(input.reason);
  const row = await deps.chain.byPublicId(ctx, { publicId: input.publicId });
  if (row?.direction !== 'out') throw notFound('This sendout', 'id');
  const target = { action: `sendout.${input.action}`, targetType: 'sendout' as const, targetId: row.publicId };
  await requireSecondFactor(deps, ctx, operator, { code: input.code, reason, target });
  await immediate(deps.db, async () => {
    const outcome =
      input.action === 'retry'
        ? await deps.chain.retrySendout(ctx, { id: row.id })
        : await deps.chain.cancelSendout(ctx, { id: row.id, reason: `cancelled by an operator: ${reason}` });
    if (outcome !== 'done') throw conflict(outcome);
    await deps.audit.record(operator.actor, { ...target, reason, requestId: ctx.requestId });
  });
  const after = await asDatabase(deps.db).sql.get<SendoutRow>(`${SELECT} AND c.id = ?`, [row.id]);
  return sendoutView(after as SendoutRow, deps.now());
}
