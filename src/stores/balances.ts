import { atom } from 'nanostores';
import type { WalletBalance } from '../components/wallet/types.ts';
import { apiGet } from '../lib/api-client.ts';

// The person's balances (GET /rest/v1/balances), shared by the islands of a page: seeded in the
// browser with what the server rendered (src/lib/use-seeded-store.ts), reloaded when the wallet
// channel says they changed or after a conversion or a sendout. Never written on the server.

export const $balances = atom<WalletBalance[] | undefined>(undefined);

/** Both currencies, zero for a missing one (spec section 9). */
export function withDefaults(balances: readonly WalletBalance[]): WalletBalance[] {
  return (['BTC', 'USDT'] as const).map(
    (code) =>
      balances.find((b) => b.cryptoCurrencyCode === code) ?? {
        cryptoCurrencyCode: code,
        balance: code === 'BTC' ? '0.00000000' : '0.000000',
        incoming: code === 'BTC' ? '0.00000000' : '0.000000',
      },
  );
}

export async function reloadBalances(locale: string): Promise<void> {
  const answer = await apiGet<WalletBalance[]>(`/rest/v1/balances?locale=${encodeURIComponent(locale)}`);
  if (answer.ok && answer.data) $balances.set(withDefaults(answer.data));
}
