import { randomBase62 } from '../../../db/ids.ts';
import type { ChainNetwork, LedgerCurrency } from '../../../db/schema/index.ts';
import type { EventBus } from '../../realtime/bus.ts';
import { personalChannel } from '../../realtime/channels.ts';
import { type Actor, immediate, type ServiceContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { type LedgerService, systemAccount, walletOf } from '../ledger/ledger.ts';
import type { AddressBook } from '../wallet/address-book.ts';
import { BroadcastRejected, type ChainAdapter, type DepositObservation } from './adapter.ts';
import { DEPOSIT_NETWORK_OF, NETWORKS } from './networks.ts';
import type { ChainRepository, ChainTxRow } from './repository.ts';
import { randomTxid, type SimulatedChain } from './simulated.ts';

// The chain job (issue 5): watches deposits to our addresses, credits each through the ledger once
// it has its network's confirmations, hands sendouts to the network and settles them. It runs on a
// timer in the server (server/backend.ts) and once per command in the admin CLI; all its state is
// in the database, so a restart (or a second process) continues where the last run stopped.
//
// Exactly once: a deposit's credit is posted with the idempotency key `deposit:<network>:<txid>:<vout>`
// in the same immediate transaction that moves its row from `incoming` to `confirmed` (guarded on
// that status), and a failed sendout's return likewise with `sendout-return:<chn_…>`. Whatever runs
// twice, the ledger replays the first posting and the guarded update changes nothing.

export const WALLET_EVENT = 'balances';
const CHAIN_ACTOR: Actor = { type: 'system', name: 'chain' };

export const newChainTxId = () => `chn_${randomBase62(16)}`;
export const depositKey = (row: Pick<ChainTxRow, 'network' | 'txid' | 'vout'>) =>
  `deposit:${row.network}:${row.txid}:${row.vout}`;
export const sendoutKey = (publicId: string) => `sendout:${publicId}`;
/** Request ids are the client's: scoped by user, so two people's ids never collide. */
const sendoutRequestKey = (userId: number, requestId: string) => `sendout:${userId}:${requestId}`;
export const sendoutReturnKey = (publicId: string) => `sendout-return:${publicId}`;

export interface ChainLog {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export interface SendoutInput {
  userId: number;
  currency: LedgerCurrency;
  network: ChainNetwork;
  address: string;
  amount: number;
  /** The client's `request_id`; a retry with the same one returns the first sendout. */
  requestId: string;
}

export function createChainService({
  repo,
  adapter,
  ledger,
  addressBook,
  bus,
  now,
  log,
}: {
  repo: ChainRepository;
  adapter: ChainAdapter;
  ledger: LedgerService;
  addressBook: AddressBook;
  bus: EventBus;
  now: () => number;
  log: ChainLog;
}) {
  let announcedSeq = repo.maxSeq();
  let running: Promise<void> | undefined;

  /**
   * `body` in one immediate transaction whose ledger postings (through ctx.tx) publish their
   * events only after the commit.
   */
  const inTransaction = <T>(body: (ctx: ServiceContext) => T): T =>
    immediate(repo.db, (tx) => body({ actor: CHAIN_ACTOR, tx }));

  /** New outputs become `incoming` rows; known ones get their confirmations; conflicts fail. */
  const record = (network: (typeof adapter.depositNetworks)[number], seen: DepositObservation[]) => {
    const at = now();
    for (const deposit of seen) {
      const known = repo.byOutput(network, deposit.txid, deposit.vout);
      if (!known) {
        const owner = addressBook.find(deposit.address);
        if (!owner || DEPOSIT_NETWORK_OF[owner.currency] !== network || deposit.amount <= 0) continue;
        if (deposit.confirmations < 0) continue;
        repo.insertDeposit({
          publicId: newChainTxId(),
          currency: owner.currency,
          network,
          userId: owner.userId,
          address: deposit.address,
          amount: deposit.amount,
          txid: deposit.txid,
          vout: deposit.vout,
          blockHeight: deposit.blockHeight,
          confirmations: deposit.confirmations,
          requiredConfirmations: NETWORKS[network].requiredConfirmations,
          simulated: adapter.kind === 'simulated' ? 1 : 0,
          at,
        });
      } else if (known.status === 'incoming') {
        if (deposit.confirmations < 0) repo.failDeposit(known.id, 'conflicted: the transaction will never confirm', at);
        else repo.observe(known.id, deposit.confirmations, deposit.blockHeight, at);
      }
    }
  };

  /** Credits one deposit if it is still incoming and has its confirmations; false otherwise. */
  const creditDeposit = (id: number): boolean =>
    inTransaction((ctx) => {
      const row = repo.byId(id);
      if (row?.direction !== 'in' || row.status !== 'incoming') return false;
      if (row.confirmations < row.requiredConfirmations) return false;
      const tx = ledger.post({
        ctx,
        input: {
          kind: 'deposit',
          idempotencyKey: depositKey(row),
          legs: [
            { account: systemAccount('chain_in', row.currency), amount: -row.amount },
            { account: walletOf(row.userId, row.currency), amount: row.amount },
          ],
          metadata: { chainTx: row.publicId, network: row.network, txid: row.txid, vout: row.vout },
        },
      });
      return repo.confirmDeposit(row.id, repo.ledgerIdOf(tx.id), now());
    });

  /** Returns a sendout's held amount and fee to its wallet, once; false when it was settled already. */
  const failSendout = (id: number, reason: string): boolean =>
    inTransaction((ctx) => {
      const row = repo.byId(id);
      if (row?.direction !== 'out' || (row.status !== 'pending' && row.status !== 'broadcast')) return false;
      const total = row.amount + row.fee;
      const tx = ledger.post({
        ctx,
        input: {
          kind: 'sendout_return',
          idempotencyKey: sendoutReturnKey(row.publicId),
          legs: [
            { account: systemAccount('chain_out', row.currency), amount: -total },
            { account: walletOf(row.userId, row.currency), amount: total },
          ],
          metadata: { chainTx: row.publicId, network: row.network, reason },
        },
      });
      return repo.failSendout(row.id, repo.ledgerIdOf(tx.id), reason, now());
    });

  const broadcastPending = async () => {
    for (const row of repo.open('pending')) {
      if (!adapter.sendNetworks.includes(row.network) || row.broadcastStartedAt !== null) continue;
      if (!repo.claimBroadcast(row.id, now())) continue;
      try {
        const { txid } = await adapter.broadcast({
          publicId: row.publicId,
          network: row.network,
          address: row.address,
          amount: row.amount,
        });
        repo.markBroadcast(row.id, txid, adapter.kind === 'simulated', now());
      } catch (error) {
        if (error instanceof BroadcastRejected) {
          failSendout(row.id, error.message);
          log.info(`Chain: sendout ${row.publicId} refused by the network, returned to the wallet: ${error.message}`);
        } else {
          // Perhaps sent, perhaps not: sending again could pay twice, returning could pay twice too.
          log.error(
            `Chain: sendout ${row.publicId} has an unknown outcome; it stays pending until an operator checks the node`,
            error,
          );
        }
      }
    }
  };

  const trackBroadcast = async () => {
    for (const row of repo.open('broadcast')) {
      if (!adapter.sendNetworks.includes(row.network) || row.txid === null) continue;
      const confirmations = await adapter.confirmations(row.network, row.txid);
      if (confirmations === null) continue;
      if (confirmations < 0) {
        failSendout(row.id, 'conflicted: the transaction will never confirm');
        continue;
      }
      repo.observe(row.id, confirmations, row.blockHeight, now());
      if (confirmations >= row.requiredConfirmations) repo.confirmSendout(row.id, now());
    }
  };

  /** `{ type: 'balances' }` on the personal wallet channel of everyone whose chain rows changed. */
  const announce = () => {
    const changed = repo.changedSince(announcedSeq);
    if (changed.length === 0) return;
    announcedSeq = changed.at(-1)?.seq ?? announcedSeq;
    for (const publicId of new Set(changed.map((row) => row.publicId)))
      bus.publish(personalChannel('wallet', publicId), { type: WALLET_EVENT, payload: null });
  };

  const runTick = async () => {
    adapter.advance?.(now());
    for (const network of adapter.depositNetworks) {
      const scan = await adapter.scanDeposits(network, (address) => addressBook.find(address) !== undefined);
      immediate(repo.db, () => {
        record(network, scan.deposits);
        if (scan.cursor) repo.setCursor(network, scan.cursor.value, scan.cursor.height, now());
      });
    }
    for (const row of repo.open('incoming')) if (row.confirmations >= row.requiredConfirmations) creditDeposit(row.id);
    await broadcastPending();
    await trackBroadcast();
  };

  /**
   * One round of the job. Overlapping calls share the running round; a failing round is logged
   * and the next starts afresh from the database. Announcements always run, so changes other
   * processes made (the admin CLI) reach the sockets even when this round failed.
   */
  const tick = (): Promise<void> => {
    running ??= runTick()
      .catch((error) => log.error('Chain: a round of the chain job failed', error))
      .finally(() => {
        running = undefined;
        announce();
      });
    return running;
  };

  return {
    adapter,
    tick,

    /** Runs `tick` now and every `intervalMs`; the returned function stops it and waits for a running round. */
    start(intervalMs: number): () => Promise<void> {
      void tick();
      const timer = setInterval(() => void tick(), intervalMs);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await running;
      };
    },

    /** Credits one deposit if due (tests use it to run the step twice). */
    creditDeposit,

    /** Incoming (seen, not yet credited) per currency, in minor units. */
    incomingOf(userId: number): Record<LedgerCurrency, number> {
      const result: Record<LedgerCurrency, number> = { BTC: 0, USDT: 0 };
      for (const row of repo.incomingOf(userId)) result[row.currency] = row.total;
      return result;
    },

    /**
     * A sendout: the amount and the network fee leave the wallet into the `chain_out` hold in the
     * same transaction that records it as `pending`; the job broadcasts it. The same request id
     * with the same parameters answers the first sendout (`replayed`); with others it is refused.
     */
    requestSendout(input: SendoutInput): { row: ChainTxRow; replayed: boolean } {
      const policy = NETWORKS[input.network];
      const key = sendoutRequestKey(input.userId, input.requestId);
      return inTransaction((ctx) => {
        const existing = repo.byKey(key);
        if (existing) {
          const same =
            existing.currency === input.currency &&
            existing.network === input.network &&
            existing.address === input.address &&
            existing.amount === input.amount;
          if (!same)
            throw new AppError(
              'IDEMPOTENCY_KEY_REUSED',
              'This request_id was used for a different sendout; use a new one for a new sendout.',
              { field: 'request_id', key: 'idempotency_key_reused' },
            );
          return { row: existing, replayed: true };
        }
        const publicId = newChainTxId();
        const total = input.amount + policy.sendoutFee;
        const tx = ledger.post({
          ctx: { ...ctx, actor: { type: 'user', userId: input.userId } },
          input: {
            kind: 'sendout',
            idempotencyKey: sendoutKey(publicId),
            legs: [
              { account: walletOf(input.userId, input.currency), amount: -total },
              { account: systemAccount('chain_out', input.currency), amount: total },
            ],
            metadata: { chainTx: publicId, network: input.network, address: input.address, fee: policy.sendoutFee },
          },
        });
        const row = repo.insertSendout({
          publicId,
          currency: input.currency,
          network: input.network,
          userId: input.userId,
          address: input.address,
          amount: input.amount,
          fee: policy.sendoutFee,
          requiredConfirmations: policy.requiredConfirmations,
          ledgerTransactionId: repo.ledgerIdOf(tx.id),
          idempotencyKey: key,
          at: now(),
        });
        return { row, replayed: false };
      });
    },

    /** Simulated chain only: an incoming deposit to the user's address, in the mempool. */
    simulateDeposit({ userId, currency, amount }: { userId: number; currency: LedgerCurrency; amount: number }) {
      if (adapter.kind !== 'simulated') throw new Error('Deposits can be simulated only with CHAIN=simulated.');
      if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError('A deposit is a positive amount.');
      const { address, network } = addressBook.current(userId, currency);
      const row = immediate(repo.db, () =>
        repo.insertDeposit({
          publicId: newChainTxId(),
          currency,
          network,
          userId,
          address,
          amount,
          txid: randomTxid(),
          vout: 0,
          blockHeight: null,
          confirmations: 0,
          requiredConfirmations: NETWORKS[network].requiredConfirmations,
          simulated: 1,
          at: now(),
        }),
      );
      announce();
      return row;
    },

    /** Simulated chain only: mines `ticks` ticks now, then runs a round (credits what is due). */
    async mine(ticks = 1): Promise<void> {
      if (adapter.kind !== 'simulated') throw new Error('Blocks can be mined only with CHAIN=simulated.');
      (adapter as SimulatedChain).mine(ticks, now());
      await tick();
    },

    /** The sendout networks this chain can serve now. */
    canSend: (network: ChainNetwork) => adapter.sendNetworks.includes(network),

    byPublicId: (publicId: string) => repo.byPublicId(publicId),

    /** The sendout a request id already made, if any. */
    sendoutOf: (userId: number, requestId: string) => repo.byKey(sendoutRequestKey(userId, requestId)),
  };
}

export type ChainService = ReturnType<typeof createChainService>;
