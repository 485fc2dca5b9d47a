import { LEDGER_CURRENCIES, type LedgerCurrency } from '../../../db/schema/index.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../../src/lib/shared/money.ts';
import type { CurrencyReservesView, ReservesView } from '../../../src/lib/shared/views/proof.ts';
import type { AddressHolding, ChainAdapter } from '../chain/adapter.ts';
import { DEPOSIT_NETWORK_OF } from '../chain/networks.ts';
import type { ServiceContext } from '../context.ts';
import type { ProofRepository } from './repository.ts';

// The reserves side of the proof page (decision 149): what the platform's addresses hold on the
// chain, read from the chain adapter, beside the latest published liabilities. The page is public
// and the reading walks every address, so one reading serves everyone for a minute, or until the
// chain's rows change (a new deposit or sendout); liabilities come from the stored roots each time.

/** How long one reading of the chain is served. */
export const RESERVES_CACHE_MS = 60_000;

export interface ReservesDeps {
  repo: ProofRepository;
  chain?: ChainAdapter | undefined;
  now: () => number;
  /** Rises with every change to the chain's rows (chain_transactions.seq). */
  chainSeq: () => Promise<number>;
}

interface Reading {
  at: number;
  seq: number;
  holdings: Promise<Map<LedgerCurrency, AddressHolding[] | null>>;
}

async function readChain(chain: ChainAdapter | undefined): Promise<Map<LedgerCurrency, AddressHolding[] | null>> {
  const holdings = new Map<LedgerCurrency, AddressHolding[] | null>();
  for (const currency of LEDGER_CURRENCIES) {
    const network = DEPOSIT_NETWORK_OF[currency];
    const readable = chain?.holdings && chain.depositNetworks.includes(network);
    holdings.set(currency, readable && chain?.holdings ? await chain.holdings(network) : null);
  }
  return holdings;
}

function currencyView(
  currency: LedgerCurrency,
  holdings: AddressHolding[] | null,
  liabilities: number | null,
): CurrencyReservesView {
  const decimals = CRYPTO_DECIMALS[currency];
  const sorted = [...(holdings ?? [])].sort((a, b) => b.balance - a.balance || a.address.localeCompare(b.address));
  const total = sorted.reduce((sum, h) => sum + h.balance, 0);
  return {
    currency,
    network: DEPOSIT_NETWORK_OF[currency],
    available: holdings !== null,
    total: fromMinorUnits(total, decimals),
    totalMinorUnits: total,
    liabilities: liabilities === null ? null : fromMinorUnits(liabilities, decimals),
    ratio: holdings !== null && liabilities ? total / liabilities : null,
    addresses: sorted.map((h) => ({
      address: h.address,
      balance: fromMinorUnits(h.balance, decimals),
      balanceMinorUnits: h.balance,
    })),
  };
}

export function createReserves({ repo, chain, now, chainSeq }: ReservesDeps) {
  let cached: Reading | undefined;
  /** One reading for everyone while it is fresh; concurrent visitors share the one in flight. */
  const reading = async (): Promise<Reading> => {
    const seq = await chainSeq();
    if (!cached || cached.seq !== seq || now() - cached.at >= RESERVES_CACHE_MS) {
      const holdings = readChain(chain);
      const next: Reading = { at: now(), seq, holdings };
      cached = next;
      // A failed reading is tried again on the next request, not served.
      holdings.catch(() => {
        if (cached === next) cached = undefined;
      });
    }
    return cached;
  };

  return async (_ctx: ServiceContext): Promise<ReservesView> => {
    const { at, holdings: pending } = await reading();
    const holdings = await pending;
    const publication = await repo.latest();
    const roots = publication ? await repo.rootsOf([Number(publication.id)]) : [];
    const owed = (currency: LedgerCurrency) => {
      const root = roots.find((r) => r.currency === currency);
      return root ? Number(root.total) : null;
    };
    return {
      readAt: at,
      chain: chain?.kind ?? 'none',
      publication: publication ? { id: publication.publicId, publishedAt: Number(publication.publishedAt) } : null,
      currencies: LEDGER_CURRENCIES.map((currency) =>
        currencyView(currency, holdings.get(currency) ?? null, owed(currency)),
      ),
    };
  };
}
