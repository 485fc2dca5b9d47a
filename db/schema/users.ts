import { index, integer, table, text } from './dialect.ts';
import { countries, fiatCurrencies } from './reference.ts';

// Accounts at the depth the skeleton needs (demo users owning offers); the accounts issue adds
// sessions, two-factor, devices and settings in tables of their own.

export const users = table(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Public identifier (`usr_…`); never expose the row id. */
    publicId: text('public_id').notNull().unique(),
    username: text('username').notNull().unique(),
    /** Stored lower-cased, so uniqueness is case-insensitive. */
    email: text('email').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['user', 'moderator', 'admin'] })
      .notNull()
      .default('user'),
    status: text('status', { enum: ['active', 'suspended', 'banned'] })
      .notNull()
      .default('active'),
    isVendor: integer('is_vendor', { mode: 'boolean' }).notNull().default(false),
    isAffiliate: integer('is_affiliate', { mode: 'boolean' }).notNull().default(false),
    /** An affiliate who also earns on the fees of their referrals' sales (granted by an administrator). */
    isAffiliatePayForSellSide: integer('is_affiliate_pay_for_sell_side', { mode: 'boolean' }).notNull().default(false),
    isMerchant: integer('is_merchant', { mode: 'boolean' }).notNull().default(false),
    isKiosk: integer('is_kiosk', { mode: 'boolean' }).notNull().default(false),
    /** A kiosk's margin over the market price, in basis points (0-2000); it sets it itself. */
    kioskMarginBasisPoints: integer('kiosk_margin_basis_points').notNull().default(300),
    isEmailVerified: integer('is_email_verified', { mode: 'boolean' }).notNull().default(false),
    /**
     * When the identity was verified (unix ms), null until then: a moderator approved the ID
     * document and selfie (server/services/verification), or an operator ran `user:verify-id`.
     */
    idVerifiedAt: integer('id_verified_at'),
    /** The same for the proof of address (`user:verify-address`); verification level 4. */
    addressVerifiedAt: integer('address_verified_at'),
    /**
     * The full name as on the identity document, given when the identity is sent to review; it is
     * the person's verified name once `idVerifiedAt` is set (the payer-name check of bank trades).
     */
    fullName: text('full_name'),
    /** Registration picks a username; the user may change it once (spec section 4). */
    isUsernameChanged: integer('is_username_changed', { mode: 'boolean' }).notNull().default(false),
    /** This user's own referral code (affiliates). Null only for rows older than the column. */
    referralCode: text('referral_code').unique(),
    referredById: integer('referred_by_id'),
    countryId: integer('country_id').references(() => countries.id),
    currencyId: integer('currency_id').references(() => fiatCurrencies.id),
    locale: text('locale').notNull().default('en'),
    feedbackPositive: integer('feedback_positive').notNull().default(0),
    feedbackNegative: integer('feedback_negative').notNull().default(0),
    completedTrades: integer('completed_trades').notNull().default(0),
    /** What the completed trades came to in US cents, kept with `completedTrades` (the referral table's volume). */
    tradedUsdCents: integer('traded_usd_cents').notNull().default(0),
    /**
     * Copies of the person's wallet balances (minor units), written by a trigger on
     * ledger_accounts in the same statement as the ledger's own update (migrations 0026, 0010 on
     * PostgreSQL): the listing reads them with the owner's row it reads anyway, instead of joining
     * the ledger for every offer (docs/decisions/121-unfunded-sell-offers.md). The ledger stays the
     * truth; `ledger:verify` checks that the copies agree.
     */
    walletBtc: integer('wallet_btc').notNull().default(0),
    walletUsdt: integer('wallet_usdt').notNull().default(0),
    /** Unix milliseconds. */
    lastSeenAt: integer('last_seen_at').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('users_role_idx').on(t.role), index('users_referred_by_idx').on(t.referredById, t.createdAt)],
);
