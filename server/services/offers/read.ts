import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { startTradeStep } from '../../../src/lib/shared/start-trade-decision.ts';
import type { PersonContext, ServiceContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { OFFLINE_AFTER_MS } from './online.ts';
import type { OfferRow } from './repository.ts';
import { startBlocks } from './start-gate.ts';
import type { OfferDetails, OffersParts } from './types.ts';
import { viewerOf } from './viewer.ts';

// One offer as a person sees it, with what stands between them and a trade.

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
  const isNewPartner = (viewer?.completedTrades ?? 0) === 0;
  const cap = isNewPartner ? offer.newBuyerMaxFiatLimit : null;
  const max = cap === null ? offer.fiatLimitMax : Math.min(cap, offer.fiatLimitMax);
  const limits = {
    min: offer.fiatLimitMin,
    // A trade above what the verification level has left would be refused at the start.
    max: viewerAllowance ? Math.max(offer.fiatLimitMin, Math.min(max, Math.floor(viewerAllowance.unused))) : max,
  };
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
