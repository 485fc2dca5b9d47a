import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import type { LedgerCurrency } from '../../../db/schema/index.ts';

// What the console reads about a person (people.ts), in the portable SQL both engines run. Each
// list is bounded: the file shows the recent part, the wallet and trades pages the rest.

export const RECENT = 20;

export interface PersonRow {
  id: number;
  publicId: string;
  username: string;
  email: string;
  role: 'user' | 'moderator' | 'admin';
  status: 'active' | 'suspended' | 'banned';
  fullName: string | null;
  isEmailVerified: number | boolean;
  idVerifiedAt: number | null;
  addressVerifiedAt: number | null;
  isVendor: number | boolean;
  isMerchant: number | boolean;
  isKiosk: number | boolean;
  isAffiliate: number | boolean;
  createdAt: number;
  lastSeenAt: number;
  phoneVerifiedAt: number | null;
  twoFactorConfirmedAt: number | null;
}

const PERSON = `SELECT u.id, u.public_id AS publicId, u.username, u.email, u.role, u.status, u.full_name AS fullName,
    u.is_email_verified AS isEmailVerified, u.id_verified_at AS idVerifiedAt,
    u.address_verified_at AS addressVerifiedAt, u.is_vendor AS isVendor, u.is_merchant AS isMerchant,
    u.is_kiosk AS isKiosk, u.is_affiliate AS isAffiliate, u.created_at AS createdAt, u.last_seen_at AS lastSeenAt,
    p.verified_at AS phoneVerifiedAt, f.confirmed_at AS twoFactorConfirmedAt
  FROM users u LEFT JOIN phones p ON p.user_id = u.id LEFT JOIN two_factor f ON f.user_id = u.id`;

const BALANCES = `SELECT kind, currency, balance FROM ledger_accounts WHERE owner_id = ?
    AND kind IN ('user_wallet', 'affiliate_earnings', 'merchant_balance', 'kiosk_balance')
  ORDER BY kind, currency`;
const ESCROWED = `SELECT currency, sum(balance) AS balance FROM ledger_accounts
  WHERE owner_id = ? AND kind = 'trade_escrow' AND resolved_at IS NULL GROUP BY currency ORDER BY currency`;
const MOVEMENTS = `SELECT t.public_id AS transactionId, t.kind, t.memo, a.kind AS account, p.currency, p.amount,
    t.created_at AS createdAt
  FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id
  JOIN ledger_transactions t ON t.id = p.transaction_id
  WHERE a.owner_id = ? ORDER BY p.id DESC LIMIT ${RECENT}`;
const TRADES = `SELECT t.hash, t.status, t.crypto_code AS cryptoCode, t.crypto_amount AS cryptoAmount,
    t.fiat_amount_minor AS fiatAmountMinor, c.code AS fiatCode, t.buyer_id AS buyerId, t.started_at AS startedAt,
    t.ended_at AS endedAt, t.disputed_at AS disputedAt, t.dispute_opened_by AS disputeOpenedBy,
    t.resolved_by AS resolvedBy
  FROM trades t JOIN fiat_currencies c ON c.id = t.fiat_currency_id
  WHERE (t.buyer_id = ? OR t.seller_id = ?)`;
const DEVICES = `SELECT browser, os, ip, city, country, status, created_at AS createdAt FROM devices
  WHERE user_id = ? ORDER BY id DESC LIMIT ${RECENT}`;
const SESSIONS = `SELECT public_id AS publicId, ip, user_agent AS userAgent, created_at AS createdAt,
    last_used_at AS lastUsedAt, expires_at AS expiresAt
  FROM sessions WHERE user_id = ? AND expires_at > ? ORDER BY last_used_at DESC`;

export interface TradeRow {
  hash: string;
  status: string;
  cryptoCode: LedgerCurrency;
  cryptoAmount: number;
  fiatAmountMinor: number;
  fiatCode: string;
  buyerId: number;
  startedAt: number;
  endedAt: number | null;
  disputedAt: number | null;
  disputeOpenedBy: number | null;
  resolvedBy: number | null;
}

export function createPeopleRepository(db: DatabaseLike) {
  const { sql } = asDatabase(db);
  return {
    byPublicId: (publicId: string) => sql.get<PersonRow>(`${PERSON} WHERE u.public_id = ?`, [publicId]),
    byEmail: (email: string) => sql.get<PersonRow>(`${PERSON} WHERE u.email = ?`, [email]),
    byUsername: (username: string) => sql.get<PersonRow>(`${PERSON} WHERE lower(u.username) = lower(?)`, [username]),
    balances: (userId: number) =>
      sql.all<{ kind: string; currency: LedgerCurrency; balance: number }>(BALANCES, [userId]),
    escrowed: (userId: number) => sql.all<{ currency: LedgerCurrency; balance: number }>(ESCROWED, [userId]),
    movements: (userId: number) =>
      sql.all<{
        transactionId: string;
        kind: string;
        memo: string | null;
        account: string;
        currency: LedgerCurrency;
        amount: number;
        createdAt: number;
      }>(MOVEMENTS, [userId]),
    trades: (userId: number) => sql.all<TradeRow>(`${TRADES} ORDER BY t.id DESC LIMIT ${RECENT}`, [userId, userId]),
    disputes: (userId: number) =>
      sql.all<TradeRow>(`${TRADES} AND t.disputed_at IS NOT NULL ORDER BY t.disputed_at DESC LIMIT ${RECENT}`, [
        userId,
        userId,
      ]),
    devices: (userId: number) =>
      sql.all<{
        browser: string | null;
        os: string | null;
        ip: string;
        city: string | null;
        country: string | null;
        status: string;
        createdAt: number;
      }>(DEVICES, [userId]),
    sessions: (userId: number, now: number) =>
      sql.all<{
        publicId: string;
        ip: string;
        userAgent: string;
        createdAt: number;
        lastUsedAt: number;
        expiresAt: number;
      }>(SESSIONS, [userId, now]),
  };
}

export type PeopleRepository = ReturnType<typeof createPeopleRepository>;
