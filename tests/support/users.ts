import { randomBytes } from 'node:crypto';
import { newId } from '../../db/ids.ts';
import { phones, users } from '../../db/schema/index.ts';
import { systemContext } from '../../server/services/context.ts';
import { systemAccount, walletOf } from '../../server/services/ledger/ledger.ts';
import { signedInSession } from './browser-session.ts';
import { signedInAs } from './signed-in.ts';
import type { TestApp } from './test-app.ts';

// A fresh person for a test that does not care who it is: "some signed-in person", "a vendor",
// "a moderator", "a verified buyer". Written as the demo seed writes its accounts (db/seed/demo.ts)
// and the trade fixtures verify and fund them (tests/support/trade-fixtures.ts), with the demo
// accounts' password (DEMO_PASSWORD) so the login form works too. The seeded demo accounts stay
// for tests about the demo data itself.

/**
 * How far up the verification ladder (server/services/verification/levels.ts) the person is: each
 * step includes the ones before it. `true` is every step (level 4); `false` not even the e-mail.
 */
export type Verified = boolean | 'email' | 'phone' | 'id' | 'address';

export interface UserOptions {
  /** E-mail verified by default, as every demo account is (level 1). */
  verified?: Verified;
  vendor?: boolean;
  role?: 'user' | 'moderator' | 'admin';
  status?: 'active' | 'suspended' | 'banned';
  /** Money arriving from the chain, in base units (satoshi; USDT's six decimals), as a confirmed deposit posts it. */
  funded?: { BTC?: number; USDT?: number };
  /** Letters and digits, 3 to 20; a unique one by default. */
  username?: string;
  /** A unique address by default. */
  email?: string;
  /** The verified phone's number (E.164); one derived from the row id by default. */
  phone?: string;
  /** Unix ms; 400 days before the test clock by default, as old as the demo accounts. */
  createdAt?: number;
  /** Unix ms; the test clock's now by default (online). */
  lastSeenAt?: number;
}

const LADDER = ['email', 'phone', 'id', 'address'] as const;

/** Steps done for `verified`: how many of e-mail, phone, identity and address. */
function stepsOf(verified: Verified): number {
  if (verified === true) return LADDER.length;
  if (verified === false) return 0;
  return LADDER.indexOf(verified) + 1;
}

let made = 0;

/**
 * Makes a person with a fresh e-mail and username. Returns the row's ids, and ways to be them:
 * `session()` a session made directly (no sign-in round trip, as `signedInAs`), `signIn()` a
 * browser that signed in with the password (as `signedInSession`).
 */
export async function createUser(t: TestApp, options: UserOptions = {}) {
  made += 1;
  const role = options.role ?? 'user';
  const kind = role !== 'user' ? role : options.vendor ? 'vendor' : 'person';
  const username = options.username ?? `${kind}${made}${randomBytes(2).toString('hex')}`;
  const email = options.email ?? `${username.toLowerCase()}@people.example.org`;
  const now = t.clock.now;
  const steps = stepsOf(options.verified ?? 'email');
  const { passwordHash } = (await t.db.sql.get<{ passwordHash: string }>(
    'SELECT password_hash AS passwordHash FROM users ORDER BY id LIMIT 1',
  )) as { passwordHash: string };

  const row = await t.db.get(
    t.db.orm
      .insert(users)
      .values({
        publicId: newId('usr'),
        username,
        email,
        passwordHash,
        role,
        status: options.status ?? 'active',
        isVendor: options.vendor ?? false,
        isEmailVerified: steps >= 1,
        idVerifiedAt: steps >= 3 ? now : null,
        addressVerifiedAt: steps >= 4 ? now : null,
        referralCode: randomBytes(5).toString('hex'),
        lastSeenAt: options.lastSeenAt ?? now,
        createdAt: options.createdAt ?? now - 400 * 86_400_000,
      })
      .returning({ id: users.id, publicId: users.publicId }),
  );
  if (!row) throw new Error('the user was not made');

  if (steps >= 2) {
    const number = options.phone ?? `+4915100${String(row.id).padStart(5, '0')}`;
    await t.db.run(t.db.orm.insert(phones).values({ userId: row.id, number, verifiedAt: now, codesSentAt: [] }));
  }

  for (const currency of ['BTC', 'USDT'] as const) {
    const amount = options.funded?.[currency];
    if (!amount) continue;
    await t.services.ledger.post(systemContext('test'), {
      kind: 'deposit',
      idempotencyKey: `fund:${row.id}:${currency}:${amount}:${made}`,
      legs: [
        { account: systemAccount('chain_in', currency), amount: -amount },
        { account: walletOf(row.id, currency), amount },
      ],
    });
  }

  return {
    id: row.id,
    publicId: row.publicId,
    email,
    username,
    /** A session made directly, its cookie and CSRF-carrying JSON requests (`signedInAs`). */
    session: () => signedInAs(t, email),
    /** A browser that signed in through the login form's endpoint (`signedInSession`). */
    signIn: (ip?: string) => signedInSession(t, email, ip),
  };
}

export type TestUser = Awaited<ReturnType<typeof createUser>>;
