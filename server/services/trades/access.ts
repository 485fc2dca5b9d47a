import type { TradeActorRole } from '../../../db/schema/index.ts';
import { systemContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { TradesDeps } from './deps.ts';
import { answeredAtOf } from './dispute-clock.ts';
import type { TradeRow } from './repository.ts';
import { type TradeView, toTradeView } from './trade-view.ts';

// Who may read a trade (its two parties and moderators) and the trade as its reader sees it:
// what every verb of the service asks before it does anything.

/** Whether the seller's release asks for a code is a fact about the seller, read for any reader. */
const READER = systemContext('trades');

export function createTradeAccess({ repo, twoFactor, now, disputeWaitMs, bankAccountOf }: TradesDeps) {
  const roleIn = async (row: TradeRow, userId: number): Promise<TradeActorRole | undefined> => {
    if (userId === row.buyerId) return 'buyer';
    if (userId === row.sellerId) return 'seller';
    return (await repo.isModerator(userId)) ? 'moderator' : undefined;
  };

  /** The trade if this person may read it: its two parties and moderators; 404 for anyone else. */
  const readable = async (hash: string, userId: number) => {
    const row = await repo.byHash(hash);
    const role = row ? await roleIn(row, userId) : undefined;
    if (!row || !role) throw notFound('Trade', 'id');
    return { row, role };
  };

  const view = async (row: TradeRow, readerId: number, role: TradeActorRole): Promise<TradeView> => {
    const opponentId = readerId === row.buyerId ? row.sellerId : row.buyerId;
    const readerIp = readerId === row.responderId ? row.responderIp : await repo.latestIp(readerId);
    const opponentIp = opponentId === row.responderId ? row.responderIp : await repo.latestIp(opponentId);
    const releaseNeedsCode = role === 'seller' && (await twoFactor.purposes(READER, { userId: row.sellerId })).release;
    return toTradeView(row, await repo.requirementsOf(row.id), {
      readerId,
      role,
      now: now(),
      disputeWaitMs,
      sameIp: role !== 'moderator' && readerIp !== null && readerIp === opponentIp,
      releaseNeedsCode,
      bankAccount: bankAccountOf ? await bankAccountOf(row.id) : null,
      answeredAt: await answeredAtOf(repo, row),
      staffRole: role === 'moderator' ? await repo.staffRole(readerId) : null,
      disputeOpenedBy:
        row.disputeOpenedBy === null
          ? null
          : row.disputeOpenedBy === row.buyerId
            ? row.buyerUsername
            : row.sellerUsername,
    });
  };

  return { roleIn, readable, view };
}

export type TradeAccess = ReturnType<typeof createTradeAccess>;
