import type { KioskView } from '../../../src/lib/shared/views/kiosks.ts';
import type { PersonContext } from '../context.ts';
import { invalidInput } from '../errors.ts';
import { type KiosksDeps, kioskOf } from './deps.ts';
import { kioskBalance, percentText, saleView } from './views.ts';

// The kiosk's own screen: its balance, its margin over the market price, its latest sales.

/** The most a kiosk may add to the market price: 20 %. */
export const KIOSK_MAX_MARGIN_BASIS_POINTS = 2000;
const SALES_SHOWN = 20;

/** The kiosk's balance, margin and latest sales. */
export async function readKiosk(deps: KiosksDeps, ctx: PersonContext): Promise<KioskView> {
  const kioskId = kioskOf(ctx);
  const [balance, margin, sales] = await Promise.all([
    kioskBalance(deps, ctx, kioskId),
    deps.repo.marginOf(kioskId),
    deps.repo.salesOf(kioskId, SALES_SHOWN),
  ]);
  return { balance, marginPercent: percentText(margin), sales: sales.map(saleView) };
}

/** Sets the margin over the market price (0 to 20 %, in basis points). */
export async function setMargin(
  deps: KiosksDeps,
  ctx: PersonContext,
  { basisPoints }: { basisPoints: number },
): Promise<KioskView> {
  const kioskId = kioskOf(ctx);
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0 || basisPoints > KIOSK_MAX_MARGIN_BASIS_POINTS)
    throw invalidInput([{ field: 'marginPercent', message: 'The margin is 0 to 20 %.', key: 'kiosk_margin_range' }]);
  await deps.repo.setMargin(kioskId, basisPoints);
  return readKiosk(deps, ctx);
}
