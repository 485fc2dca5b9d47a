import { fromMinorUnits } from '../../../src/lib/shared/money.ts';
import type { CountryPlace } from '../../../src/lib/shared/views/reference.ts';
import { isEligibleForBanks } from '../banks/directory.ts';
import { isVerifiedPhone } from '../phone/phone.ts';
import type { UserProfileRow, UserRow } from '../shared/account-types.ts';
import { purposesOf } from '../two-factor/two-factor.ts';
import { isAllowedSendout } from '../wallet/sendout-permission.ts';

// The current-user shape of spec section 3. Fields that later issues back (trading activity)
// carry honest defaults until then: zero, false, empty. `balance` and
// `wallet.incomingAmount` are bitcoin, as the spec's callers read them (USDT is on /balances).

const SATOSHI_DIGITS = 8;

/** Where the person is (issue 19): their country, and the one their request comes from. */
export interface CurrentUserPlace {
  /** Their settings' country, else where they are now: name, iso, currency and popular methods. */
  country: CountryPlace | null;
  /** The country of the request's address (DEFAULT_COUNTRY when it places nowhere). */
  visitorCountryIso: string;
  /** The currency of that country. */
  locationCurrency: string;
  /** The person's own currency (`users.currency_id`, set with their country). */
  currency?: string | null;
}

/** The spec's four place fields, the same for a visitor and a signed-in person. */
export function placeFields(place: CurrentUserPlace) {
  return {
    country: place.country,
    visitorCountryISO: place.visitorCountryIso,
    locationCurrency: place.locationCurrency,
    currency: place.currency ?? place.country?.currency ?? place.locationCurrency,
  };
}

/** The verification flags of spec section 3 (server/services/verification, currentUserFlags). */
export interface VerificationFlags {
  isIdVerificationPending: boolean;
  isDocumentVerified: boolean;
  isAddressVerified: boolean;
  isAddressVerificationPending: boolean;
  kycLevelCheck: { level: number; unusedTradingVolumeInFiatCurrency: number };
  showKYCVerificationBanner: boolean;
}

/** Facts other areas own, each optional: a missing one reads as "nothing yet". */
export interface CurrentUserExtras {
  /** Documents, level and trading limit (server/services/verification). */
  verification?: VerificationFlags;
  /** Which actions need the second factor (server/services/two-factor); all false when it is off. */
  twoFactor?: { login: boolean; sendout: boolean; release: boolean };
  /** The stored `soundNotifications` setting (server/services/settings); on by default. */
  isSoundEnabled?: boolean;
  /** A verified number in `phones` (server/services/phone). */
  isPhoneVerified?: boolean;
  /** That number in E.164, shown to its owner only (spec section 3: the profile's phone). */
  phone?: string | null;
  /** `user_settings.avatar_url`, set by process-avatar (server/services/avatar). */
  avatarUrl?: string | null;
  /** Satoshi in the BTC wallet (server/services/ledger). */
  btcBalance?: number;
  /** Satoshi of the person's completed BTC trades, bought and sold (server/services/profiles). */
  btcTraded?: number;
  /** Satoshi on the way: deposits seen on the chain, not yet confirmed (server/services/chain). */
  btcIncoming?: number;
  /** Satoshi of affiliate earnings waiting to move to the wallet (server/services/affiliates). */
  affiliateBtc?: number;
  /** Satoshi of a kiosk's kiosk balance and a merchant's merchant balance (server/services/kiosks, merchants). */
  kioskBtc?: number;
  merchantBtc?: number;
  /** The person's offers listed now (server/services/offers). */
  activeOffers?: number;
}

/** Reads the joined profile columns the way their owning areas define them. */
export function profileFacts(row: UserProfileRow | undefined): { extras: CurrentUserExtras } {
  return {
    extras: {
      twoFactor: purposesOf(
        row?.twoFactorConfirmedAt != null
          ? {
              confirmedAt: row.twoFactorConfirmedAt,
              forLogin: row.twoFactorLogin ?? false,
              forSendout: row.twoFactorSendout ?? false,
              forRelease: row.twoFactorRelease ?? false,
            }
          : null,
      ),
      isSoundEnabled: row?.soundNotifications ?? true,
      isPhoneVerified: isVerifiedPhone(
        row?.phoneNumber != null ? { number: row.phoneNumber, verifiedAt: row.phoneVerifiedAt } : null,
      ),
      phone: row?.phoneVerifiedAt != null && row.phoneNumber ? row.phoneNumber : null,
      avatarUrl: row?.avatarUrl ?? null,
      btcBalance: row?.btcBalance ?? 0,
      btcIncoming: row?.btcIncoming ?? 0,
      affiliateBtc: row?.affiliateBtc ?? 0,
    },
  };
}

export function toCurrentUser(user: UserRow, place: CurrentUserPlace, locale: string, extras: CurrentUserExtras = {}) {
  const isVendor = user.isVendor;
  return {
    isLogged: true,
    id: user.publicId,
    username: user.username,
    email: user.email,
    avatarUrl: extras.avatarUrl ?? null,
    // The name given for the identity document; verified once `isIdVerified` is.
    userFullName: user.fullName,
    ...placeFields(place),
    locale: user.locale,
    urlLocale: locale === 'en' ? '' : locale,
    isUsernameChanged: user.isUsernameChanged,
    isIdVerified: user.idVerifiedAt !== null,
    isIdVerificationPending: extras.verification?.isIdVerificationPending ?? false,
    isDocumentVerified: extras.verification?.isDocumentVerified ?? false,
    isPhoneVerified: extras.isPhoneVerified ?? false,
    phone: extras.isPhoneVerified ? (extras.phone ?? null) : null,
    isEmailVerified: user.isEmailVerified,
    isAddressVerified: extras.verification?.isAddressVerified ?? user.addressVerifiedAt !== null,
    isAddressVerificationPending: extras.verification?.isAddressVerificationPending ?? false,
    isVendor,
    isModerator: user.role === 'moderator' || user.role === 'admin',
    isBanned: user.status === 'banned',
    isSuspended: user.status === 'suspended',
    isKiosk: user.isKiosk,
    isMerchant: user.isMerchant,
    isAffiliate: user.isAffiliate,
    isAffiliatePayForSellSide: user.isAffiliatePayForSellSide,
    isSoundEnabled: extras.isSoundEnabled ?? true,
    completedTrades: user.completedTrades,
    activeOffersCount: extras.activeOffers ?? 0,
    totalTradedBtc: fromMinorUnits(extras.btcTraded ?? 0, SATOSHI_DIGITS),
    affiliateBalance: fromMinorUnits(extras.affiliateBtc ?? 0, SATOSHI_DIGITS),
    kioskBalance: fromMinorUnits(extras.kioskBtc ?? 0, SATOSHI_DIGITS),
    merchantBalance: fromMinorUnits(extras.merchantBtc ?? 0, SATOSHI_DIGITS),
    balance: fromMinorUnits(extras.btcBalance ?? 0, SATOSHI_DIGITS),
    twoFactor: extras.twoFactor ?? { login: false, sendout: false, release: false },
    // No bonds exist yet; identity checks for sendouts arrive with the verification issue.
    wallet: {
      incomingAmount: fromMinorUnits(extras.btcIncoming ?? 0, SATOSHI_DIGITS),
      bond: '0.00000000',
      isAllowedSendout: isAllowedSendout(user),
      isKYCRequired: false,
    },
    referralCode: user.referralCode,
    kycLevelCheck: extras.verification?.kycLevelCheck ?? { level: 0, unusedTradingVolumeInFiatCurrency: 0 },
    showKYCVerificationBanner: extras.verification?.showKYCVerificationBanner ?? false,
    // Bank accounts need a country the directory knows and a verified phone (docs/bank-accounts.md).
    isCurrentUserEligibleForBanks: isEligibleForBanks({
      countryIso: place.country?.iso,
      isPhoneVerified: extras.isPhoneVerified ?? false,
    }),
  };
}

export type CurrentUser = ReturnType<typeof toCurrentUser>;
