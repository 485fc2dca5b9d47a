import { CRYPTO_DECIMALS, fromMinorUnits } from '../../../src/lib/shared/money.ts';
import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { operatorOf } from './access.ts';
import type { OperatorsDeps } from './deps.ts';
import type { PersonRow, TradeRow } from './people-repository.ts';

// Finding a person and reading their file (issue 25, "Act"). Moderators and administrators find
// people and read the file; the security parts (devices, sessions) and the ledger's movements
// are administrators' only (docs/decisions/150-operator-console-access.md).

/** A crypto amount as the API writes it: minor units and the decimal text. */
export const cryptoAmount = (minor: number, currency: 'BTC' | 'USDT') => ({
  minor,
  amount: fromMinorUnits(minor, CRYPTO_DECIMALS[currency]),
  currency,
});

const truthy = (value: number | boolean) => value === true || value === 1;

/** The person as every answer of the console names them. */
export function personSummary(row: PersonRow) {
  return {
    publicId: row.publicId,
    username: row.username,
    email: row.email,
    role: row.role,
    status: row.status,
    createdAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
  };
}

/** What `q` names: a public id (`usr_…`), an e-mail address, or a username; exact matches only. */
export async function findPeople({ people }: OperatorsDeps, ctx: PersonContext, { q }: { q: string }) {
  operatorOf(ctx, 'staff');
  const wanted = q.trim();
  let row: PersonRow | undefined;
  if (/^usr_[0-9A-Za-z]{16}$/.test(wanted)) row = await people.byPublicId(wanted);
  else if (wanted.includes('@')) row = await people.byEmail(wanted.toLowerCase());
  else row = await people.byUsername(wanted);
  return row ? [personSummary(row)] : [];
}

/** The person `publicId` names, or 404 on `id`. */
export async function personOf({ people }: OperatorsDeps, publicId: string): Promise<PersonRow> {
  const row = await people.byPublicId(publicId);
  if (!row)
    throw new AppError('NOT_FOUND', 'No person has this id.', { field: 'id', key: 'operators_person_not_found' });
  return row;
}

function tradeLine(row: TradeRow, userId: number) {
  return {
    hash: row.hash,
    role: row.buyerId === userId ? 'buyer' : 'seller',
    status: row.status,
    crypto: cryptoAmount(row.cryptoAmount, row.cryptoCode),
    fiat: { minor: row.fiatAmountMinor, amount: fromMinorUnits(row.fiatAmountMinor, 2), currency: row.fiatCode },
    startedAt: row.startedAt,
    endedAt: row.endedAt,
  };
}

function disputeLine(row: TradeRow, userId: number) {
  return {
    ...tradeLine(row, userId),
    disputedAt: row.disputedAt,
    openedByThisPerson: row.disputeOpenedBy === userId,
    resolved: row.resolvedBy !== null,
  };
}

async function verificationOf({ verification }: OperatorsDeps, ctx: PersonContext, row: PersonRow) {
  const allowance = await verification.tradeAllowance(ctx, { userId: row.id });
  return {
    email: truthy(row.isEmailVerified),
    phone: row.phoneVerifiedAt !== null,
    identityVerifiedAt: row.idVerifiedAt,
    addressVerifiedAt: row.addressVerifiedAt,
    fullName: row.fullName,
    level: allowance.level,
    limits: {
      windowDays: allowance.windowDays,
      limitUsdCents: allowance.limitUsdCents,
      usedUsdCents: allowance.usedUsdCents,
      unusedUsdCents: allowance.unusedUsdCents,
    },
  };
}

async function moneyOf({ people }: OperatorsDeps, userId: number) {
  return {
    balances: (await people.balances(userId)).map((b) => ({ account: b.kind, ...cryptoAmount(b.balance, b.currency) })),
    inEscrow: (await people.escrowed(userId)).map((b) => cryptoAmount(Number(b.balance), b.currency)),
  };
}

/** What only administrators read: devices, live sessions and the ledger's recent movements. */
async function adminPartsOf({ people, now }: OperatorsDeps, userId: number) {
  return {
    devices: await people.devices(userId),
    sessions: await people.sessions(userId, now()),
    ledger: (await people.movements(userId)).map((m) => ({
      transactionId: m.transactionId,
      kind: m.kind,
      memo: m.memo,
      account: m.account,
      ...cryptoAmount(m.amount, m.currency),
      createdAt: m.createdAt,
    })),
  };
}

/** A person's file; `devices`, `sessions` and `ledger` only for administrators. */
export async function personFile(deps: OperatorsDeps, ctx: PersonContext, { publicId }: { publicId: string }) {
  const operator = operatorOf(ctx, 'staff');
  const row = await personOf(deps, publicId);
  const { people } = deps;
  return {
    person: {
      ...personSummary(row),
      roles: {
        vendor: truthy(row.isVendor),
        merchant: truthy(row.isMerchant),
        kiosk: truthy(row.isKiosk),
        affiliate: truthy(row.isAffiliate),
      },
      twoFactor: row.twoFactorConfirmedAt !== null,
    },
    verification: await verificationOf(deps, ctx, row),
    ...(await moneyOf(deps, row.id)),
    trades: (await people.trades(row.id)).map((t) => tradeLine(t, row.id)),
    disputes: (await people.disputes(row.id)).map((t) => disputeLine(t, row.id)),
    ...(operator.isAdmin ? await adminPartsOf(deps, row.id) : {}),
  };
}
