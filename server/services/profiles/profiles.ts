import { formatAgo } from '../../../src/lib/shared/format.ts';
import { type Locale, localeTags } from '../../../src/lib/shared/i18n/locales.ts';
import { translate } from '../../../src/lib/shared/i18n/messages.ts';
import { CRYPTO_DECIMALS, fromMinorUnits, minorToMajor } from '../../../src/lib/shared/money.ts';
import { type PresenceLevel, presenceLevel } from '../../../src/lib/shared/presence.ts';
import type { AuthState } from '../context.ts';
import { AppError, invalidInput, notFound } from '../errors.ts';
import { localizedCountryName } from '../reference/display-names.ts';
import type { PastTradesStatus, PastTradesType, ProfilesRepository, TrustKind } from './repository.ts';

// Public profiles (spec section 3 "User profile"), what one person thinks of another (trusted,
// blocked) and a person's past trades (spec section 7, users/{username}/past-trades).

/** Spec section 9: page size 50. */
export const PAST_TRADES_PAGE_SIZE = 50;

export type Relation = TrustKind | 'none';

export interface ProfileView {
  username: string;
  avatarUrl: string | null;
  /** Never shared: people have no setting to publish a full name (docs/decisions.md). */
  fullName: null;
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

export interface PastTradeView {
  id: string;
  link: string;
  type: 'bought' | 'sold';
  status: string;
  partner: { username: string; profile: string; avatarUrl: string | null };
  fiatAmountRequested: number;
  currency: string;
  cryptoCurrency: 'BTC' | 'USDT';
  cryptoAmount: string;
  btcAmount: { satoshi: number; btc: string } | null;
  paymentMethod: string;
  wasDisputed: boolean;
  /** Unix seconds. */
  startedAt: number;
  endedAt: number | null;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

export function createProfilesService({
  repo,
  now,
  onTrustChanged,
}: {
  repo: ProfilesRepository;
  now: () => number;
  /** Blocking changes whose offers a person sees: the offers service drops its cached searches. */
  onTrustChanged?: () => void;
}) {
  const visibleUser = (username: string) => {
    const user = repo.userByName(username);
    // Banned people have no public page (their offers are gone too, offers.listForUser).
    if (!user || user.status === 'banned') throw notFound('User', 'username');
    return user;
  };

  return {
    profile({ username, auth, locale }: { username: string; auth: AuthState | null; locale: Locale }): ProfileView {
      const user = visibleUser(username);
      const viewerId = auth?.user.id;
      const isSelf = viewerId === user.id;
      const at = now();
      const level = presenceLevel(Math.max(0, seconds(at - user.lastSeenAt)));
      const place = repo.latestCountry(user.id);
      const location = place
        ? { iso: place.iso, name: localizedCountryName(locale, place.iso, place.name ?? place.iso) }
        : null;
      const trust = repo.trustCounts(user.id);
      const registered = new Date(user.createdAt);
      return {
        username: user.username,
        avatarUrl: user.avatarUrl,
        fullName: null,
        bio: user.bio ?? '',
        ipLocation: location,
        detectedLocation: location,
        tradedWithYou: viewerId === undefined || isSelf ? null : repo.completedWith(viewerId, user.id),
        lastSeen: {
          text:
            level === 'online'
              ? translate(locale, 'offer.vendor.online')
              : translate(locale, 'offer.vendor.seen', {
                  ago: formatAgo(seconds(user.lastSeenAt), seconds(at), localeTags[locale]),
                }),
          level,
          at: seconds(user.lastSeenAt),
        },
        phone: { verified: user.phoneVerifiedAt !== null },
        feedback: { positive: user.feedbackPositive, negative: user.feedbackNegative },
        verification: { id: user.idVerifiedAt !== null, email: user.isEmailVerified === 1 },
        registered: {
          year: registered.getUTCFullYear(),
          month: registered.getUTCMonth() + 1,
          day: registered.getUTCDate(),
        },
        totalPartners: repo.partners(user.id),
        totalTrades: user.completedTrades,
        btcTraded: fromMinorUnits(repo.btcTraded(user.id), CRYPTO_DECIMALS.BTC),
        trustedCount: trust.trusted,
        blockedCount: trust.blocked,
        relation: viewerId === undefined || isSelf ? null : (repo.trustOf(viewerId, user.id) ?? 'none'),
        isSelf,
      };
    },

    /**
     * Trust, block or neither. Blocking hides both people's offers from each other and refuses
     * trades between them (offers search, start gate); one relation per pair and direction.
     */
    setTrust({ auth, username, kind }: { auth: AuthState; username: string; kind: Relation }) {
      const other = visibleUser(username);
      if (other.id === auth.user.id) {
        throw invalidInput([{ field: 'username', message: 'You cannot trust or block yourself.', key: 'trust_self' }]);
      }
      if (kind === 'none') repo.clearTrust(auth.user.id, other.id);
      else repo.setTrust(auth.user.id, other.id, kind, now());
      onTrustChanged?.();
      const counts = repo.trustCounts(other.id);
      return { relation: kind, trustedCount: counts.trusted, blockedCount: counts.blocked };
    },

    /** Ended trades of a person, newest first, for that person and moderators only. */
    pastTrades({
      auth,
      username,
      page,
      status,
      type,
    }: {
      auth: AuthState;
      username: string;
      page: number;
      status: PastTradesStatus;
      type: PastTradesType;
    }) {
      const user = repo.userByName(username);
      if (!user) throw notFound('User', 'username');
      if (user.id !== auth.user.id && !repo.isModerator(auth.user.id)) {
        throw new AppError('FORBIDDEN', 'Only the person themselves sees their past trades.', {
          key: 'past_trades_own_only',
        });
      }
      const total = repo.countPastTrades(user.id, type, status);
      const lastPage = Math.max(1, Math.ceil(total / PAST_TRADES_PAGE_SIZE));
      const rows = repo.pastTrades(user.id, type, status, PAST_TRADES_PAGE_SIZE, (page - 1) * PAST_TRADES_PAGE_SIZE);
      const data = rows.map((row): PastTradeView => {
        const bought = row.buyerId === user.id;
        const partner = bought ? row.sellerUsername : row.buyerUsername;
        const decimals = CRYPTO_DECIMALS[row.cryptoCode];
        return {
          id: row.hash,
          link: `/trade/${row.hash}`,
          type: bought ? 'bought' : 'sold',
          status: row.status,
          partner: {
            username: partner,
            profile: `/profile/${partner}`,
            avatarUrl: bought ? row.sellerAvatarUrl : row.buyerAvatarUrl,
          },
          fiatAmountRequested: minorToMajor(row.fiatAmountMinor, row.fiatMinorUnits),
          currency: row.fiatCode,
          cryptoCurrency: row.cryptoCode,
          cryptoAmount: fromMinorUnits(row.cryptoAmount, decimals),
          btcAmount:
            row.cryptoCode === 'BTC'
              ? { satoshi: row.cryptoAmount, btc: fromMinorUnits(row.cryptoAmount, decimals) }
              : null,
          paymentMethod: row.paymentMethodName,
          wasDisputed: row.disputedAt !== null,
          startedAt: seconds(row.startedAt),
          endedAt: row.endedAt === null ? null : seconds(row.endedAt),
        };
      });
      return { data, meta: { currentPage: page, lastPage, total } };
    },
  };
}

export type ProfilesService = ReturnType<typeof createProfilesService>;
