import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { startTradeStep } from '../../../src/lib/shared/start-trade-decision.ts';
import type { PersonContext, ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';
import type { OfferView } from './offer-view.ts';
import { OFFLINE_AFTER_MS } from './online.ts';
import type { OfferRow } from './repository.ts';
import { startBlocks } from './start-gate.ts';
import type { OfferDetails, OffersParts, ViewerLimits } from './types.ts';
import { viewerOf } from './viewer.ts';

// One offer as a person sees it, with what stands between them and a trade.

/**
 * What this viewer may trade: a new partner up to the vendor's cap for them, anyone up to what
 * their verification level has left (a trade above it would be refused at the start), never below
 * the offer's minimum; and which of the two brought the maximum down.
 */
function viewerLimits(
  offer: OfferView,
  isNewPartner: boolean,
  allowance: { level: number; unused: number } | undefined,
): ViewerLimits {
  const limits: ViewerLimits = { min: offer.fiatLimitMin, max: offer.fiatLimitMax };
  const cap = isNewPartner ? offer.newBuyerMaxFiatLimit : null;
  if (cap !== null && cap < limits.max) Object.assign(limits, { max: cap, cappedBy: 'new_partner' });
  const left = allowance ? Math.max(offer.fiatLimitMin, Math.floor(allowance.unused)) : undefined;
  if (allowance && left !== undefined && left < limits.max) {
    Object.assign(limits, { max: left, cappedBy: 'verification', level: allowance.level });
  }
  return limits;
}

async function detailsOf(
  { repo, catalogue, allowance, views, now }: OffersParts,
  ctx: ServiceContext,
  { hash, locale, visitorCountryIso }: { hash: string; locale: Locale; visitorCountryIso?: string | undefined },
): Promise<{ details: OfferDetails; row: OfferRow }> {
  const row = await repo.byHash(hash);
  const isOwner = row !== undefined && ctx.auth?.user.id === row.ownerId;
  // Deleted offers are gone; blocked and paused ones stay readable for their owner only.
  if (!row || row.status === 'deleted' || (row.status !== 'active' && !isOwner)) throw notFound('Offer', 'hash');
  const offer = await views.view(row, locale, isOwner);
  const viewer = await viewerOf(repo, ctx, row.ownerId, visitorCountryIso);
  // The viewer's trading limit in the offer's currency, rounded down to cents.
  const left = viewer && !isOwner && allowance ? await allowance(viewer.id) : undefined;
  const viewerAllowance = left && {
    level: left.level,
    unused: Math.floor(left.unusedUsdCents * (await views.marketRates()).fiatPerUsd(offer.fiatCurrency)) / 100,
  };
  const blocks = startBlocks(offer, viewer, {
    ownerOnline: row.ownerStatus === 'active' && now() - row.ownerLastSeenAt < OFFLINE_AFTER_MS,
    countryCurrency: (await catalogue).countryCurrency,
    allowance: viewerAllowance,
  });
  const limits = viewerLimits(offer, (viewer?.completedTrades ?? 0) === 0, viewerAllowance);
  const step = startTradeStep(offer, viewer ?? { isIdVerified: false });
  return { row, details: { offer, blocks, step, isOwner, limits } };
}

/** One offer as a person sees it, with what stands between them and a trade. */
export async function getOffer(
  parts: OffersParts,
  ctx: ServiceContext,
  input: { hash: string; locale: Locale; visitorCountryIso?: string | undefined },
): Promise<OfferDetails> {
  return (await detailsOf(parts, ctx, input)).details;
}

/** `get` and the row behind it: the trade start needs the offer's ids and its instructions. */
export function offerForTradeStart(parts: OffersParts, ctx: PersonContext, input: { hash: string; locale: Locale }) {
  return detailsOf(parts, ctx, input);
}
