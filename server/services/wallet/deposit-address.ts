import { renderSVG } from 'uqr';
import type { ChainNetwork, LedgerCurrency } from '../../../db/schema/index.ts';
import { NETWORKS } from '../chain/networks.ts';
import type { PersonContext } from '../context.ts';
import type { WalletDeps } from './deps.ts';

/** The text a deposit QR code carries: a BIP21 URI for bitcoin; the bare address on TRON, which has no common URI. */
const qrTextOf = (network: ChainNetwork, address: string) => (network === 'bitcoin' ? `bitcoin:${address}` : address);

/** The signed-in person's deposit address for `currency`, created on first call, with its QR code. */
export function createDepositAddress({ addressBook }: WalletDeps) {
  return async function depositAddress(ctx: PersonContext, { currency }: { currency: LedgerCurrency }) {
    const row = await addressBook.current(ctx.auth.user.id, currency);
    return {
      cryptoCurrencyCode: currency,
      network: row.network,
      address: row.address,
      qrSvg: renderSVG(qrTextOf(row.network, row.address), { ecc: 'M', border: 2, pixelSize: 6 }),
      requiredConfirmations: NETWORKS[row.network].requiredConfirmations,
    };
  };
}
