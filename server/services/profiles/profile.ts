import { formatAgo } from '../../../src/lib/shared/format.ts';
import { type Locale, localeTags } from '../../../src/lib/shared/i18n/locales.ts';
import { translate } from '../../../src/lib/shared/i18n/messages.ts';
import { CRYPTO_DECIMALS, fromMinorUnits } from '../../../src/lib/shared/money.ts';
import { type PresenceLevel, presenceLevel } from '../../../src/lib/shared/presence.ts';
import type { ServiceContext } from '../context.ts';
import { localizedCountryName } from '../reference/display-names.ts';
import type { TrustKind } from './repository.ts';
import { type ProfilesDeps, seconds } from './types.ts';
import { visibleUser } from './visible-user.ts';

export type Relation = TrustKind | 'none';

export interface ProfileView {
  username: string;
  avatarUrl: string | null;
  /**
   * The verified name (identity verified by a moderator), for the person and the people who
   * completed a trade with them; null for everyone else and before the identity is verified
   * (docs/decisions/122-who-sees-the-verified-name.md).
   */
  fullName: string | null;
  bio: string;
  /** Country of the newest sign-in the geolocation placed; null when none is known. */
  ipLocation: { iso: string; name: string } | null;
  detectedLocation: { iso: string; name: string } | null;
  /** Completed trades between the reader and this person; null for visitors and the person. */
  tradedWithYou: number | null;
  lastSeen: { text: string; level: PresenceLevel; at: number };
  phone: { verified: boolean };
  feedback: { positive: number; negative: number };
  verification: { id: boolean; email: boolean };
  registered: { year: number; month: number; day: number };
  totalPartners: number;
  totalTrades: number;
  btcTraded: string;
  trustedCount: number;
  blockedCount: number;
  /** What the reader thinks of this person; null for visitors and the person. */
  relation: Relation | null;
  isSelf: boolean;
}

/** "Online", or how long ago the person was seen, in the reader's language. */
function lastSeenText(locale: Locale, level: PresenceLevel, lastSeenAt: number, at: number): string {
  return level === 'online'
    ? translate(locale, 'offer.vendor.online')
    : translate(locale, 'offer.vendor.seen', {
        ago: formatAgo(seconds(lastSeenAt), seconds(at), localeTags[locale]),
      });
}

/**
 * Decision 122: a verified name is no one else's business until money has changed hands. The
 * person sees their own; a partner of a completed trade has seen it on a bank statement anyway
 * (and the payer check showed it to sellers, decision 112); a visitor or a stranger never does.
 */
function verifiedNameFor(
  user: { idVerifiedAt: number | null; fullName: string | null },
  { isSelf, tradedWithYou }: { isSelf: boolean; tradedWithYou: number | null },
): string | null {
  if (user.idVerifiedAt === null || !user.fullName) return null;
  return isSelf || (tradedWithYou ?? 0) > 0 ? user.fullName : null;
}

/** A person's public profile (spec section 3 "User profile"), as the reader sees it. */
export async function publicProfile(
  { repo, now }: ProfilesDeps,
  ctx: ServiceContext,
  { username, locale }: { username: string; locale: Locale },
): Promise<ProfileView> {
  const user = await visibleUser(repo, username);
  const viewerId = ctx.auth?.user.id;
  const isSelf = viewerId === user.id;
  const at = now();
  const level = presenceLevel(Math.max(0, seconds(at - user.lastSeenAt)));
  const place = await repo.latestCountry(user.id);
  const location = place
    ? { iso: place.iso, name: localizedCountryName(locale, place.iso, place.name ?? place.iso) }
    : null;
  const trust = await repo.trustCounts(user.id);
  const reader = viewerId === undefined || isSelf ? undefined : viewerId;
  const registered = new Date(user.createdAt);
  const tradedWithYou = reader === undefined ? null : await repo.completedWith(reader, user.id);
  return {
    username: user.username,
    avatarUrl: user.avatarUrl,
    fullName: verifiedNameFor(user, { isSelf, tradedWithYou }),
    bio: user.bio ?? '',
    ipLocation: location,
    detectedLocation: location,
    tradedWithYou,
    lastSeen: { text: lastSeenText(locale, level, user.lastSeenAt, at), level, at: seconds(user.lastSeenAt) },
    phone: { verified: user.phoneVerifiedAt !== null },
    feedback: { positive: user.feedbackPositive, negative: user.feedbackNegative },
    verification: { id: user.idVerifiedAt !== null, email: user.isEmailVerified === 1 },
    registered: {
      year: registered.getUTCFullYear(),
      month: registered.getUTCMonth() + 1,
      day: registered.getUTCDate(),
    },
    totalPartners: await repo.partners(user.id),
    totalTrades: user.completedTrades,
    btcTraded: fromMinorUnits(await repo.btcTraded(user.id), CRYPTO_DECIMALS.BTC),
    trustedCount: trust.trusted,
    blockedCount: trust.blocked,
    relation: reader === undefined ? null : ((await repo.trustOf(reader, user.id)) ?? 'none'),
    isSelf,
  };
}
