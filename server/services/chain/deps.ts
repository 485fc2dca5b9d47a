import { newId } from '../../../db/ids.ts';
import type { EventBus } from '../../realtime/bus.ts';
import type { LedgerService } from '../ledger/ledger.ts';
import type { AddressBook } from '../shared/deposit-addresses.ts';
import type { WebhookRecorder } from '../webhooks/recorder.ts';
import type { ChainAdapter } from './adapter.ts';
import type { ChainRepository, ChainTxRow } from './repository.ts';

// What every verb of the chain service is built from, and the idempotency keys it posts under.
//
// Exactly once: a deposit's credit is posted with the idempotency key `deposit:<network>:<txid>:<vout>`
// in the same immediate transaction that moves its row from `incoming` to `confirmed` (guarded on
// that status), and a failed sendout's return likewise with `sendout-return:<chn_…>`. Whatever runs
// twice, the ledger replays the first posting and the guarded update changes nothing.

export interface ChainLog {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export interface ChainDeps {
  repo: ChainRepository;
  adapter: ChainAdapter;
  ledger: LedgerService;
  addressBook: AddressBook;
  bus: EventBus;
  now: () => number;
  log: ChainLog;
  /** Merchants' webhooks: a deposit seen and a deposit credited join the outbox in their transactions. */
  webhooks?: WebhookRecorder;
}

export const newChainTxId = () => newId('chn');
export const depositKey = (row: Pick<ChainTxRow, 'network' | 'txid' | 'vout'>) =>
  `deposit:${row.network}:${row.txid}:${row.vout}`;
export const sendoutKey = (publicId: string) => `sendout:${publicId}`;
/** Request ids are the client's: scoped by user, so two people's ids never collide. */
export const sendoutRequestKey = (userId: number, requestId: string) => `sendout:${userId}:${requestId}`;
export const sendoutReturnKey = (publicId: string) => `sendout-return:${publicId}`;
