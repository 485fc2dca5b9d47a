import type { EventBus } from '../../realtime/bus.ts';
import type { BankReferenceRepository } from '../banks/repository.ts';
import type { TradesRepository } from '../trades/repository.ts';
import type { BankAccountsRepository } from './repository.ts';

/** What every verb of the bank-accounts service (bank-accounts.ts wires them) is made from. */
export interface BankAccountsDeps {
  repo: BankAccountsRepository;
  reference: BankReferenceRepository;
  /** The trade an account is shared into. */
  trades: Pick<TradesRepository, 'byHash'>;
  /** The trade's page hears that its payment details changed. */
  bus: EventBus;
  now: () => number;
}

/** How many accounts one person keeps at most: a screen's worth, and a bound on what one person stores. */
export const BANK_ACCOUNTS_PER_PERSON = 20;
