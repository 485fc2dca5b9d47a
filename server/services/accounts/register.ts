import { randomBytes } from 'node:crypto';
import { newId } from '../../../db/ids.ts';
import { isValidEmail } from '../../../src/lib/shared/input-patterns.ts';
import { immediate, type ServiceContext } from '../context.ts';
import { AppError, type FieldIssue, invalidInput } from '../errors.ts';
import { AFFILIATES_BUS_CHANNEL, type ReferralJoinedPayload } from '../notifications/trade-events.ts';
import { sendVerification } from './email-verification.ts';
import { emailTaken, normalizeEmail, safeRedirect } from './fields.ts';
import { compromisedPasswordError, hashPassword, isCompromisedPassword, passwordPolicyIssue } from './password.ts';
import type { AccountsDeps, RegisterInput } from './types.ts';
import { generateUsername } from './username.ts';

function checkRegistration(email: string, password: string): void {
  const details: FieldIssue[] = [];
  if (!isValidEmail(email)) {
    details.push({ field: 'email', message: 'Enter a valid e-mail address.', key: 'email_invalid' });
  }
  const passwordIssue = passwordPolicyIssue(password, 'password');
  if (passwordIssue) details.push(passwordIssue);
  if (details.length > 0) {
    throw new AppError('ERROR_INPUT_VALIDATION', details[0]?.message ?? 'Invalid input.', {
      field: details[0]?.field ?? 'email',
      ...(details[0]?.key ? { key: details[0].key, params: details[0].params ?? {} } : {}),
      details,
    });
  }
  if (isCompromisedPassword(password)) throw compromisedPasswordError('password');
}

/**
 * The person whose referral link brought this sign-up (tier 1; their own referrer is tier 2), or
 * undefined without one. Refused: a code nobody has, and one used from where its owner signs in
 * (the same address, or the same browser on the same network): a referral is someone new.
 */
async function referrerOf(deps: AccountsDeps, ctx: ServiceContext, input: RegisterInput): Promise<number | undefined> {
  const code = input.referral_code?.trim().toLowerCase();
  if (!code) return undefined;
  const referrerId = await deps.repo.userIdByReferralCode(code);
  if (referrerId === undefined) {
    throw referralRefused(
      'referral_unknown',
      'This referral link is not valid. Open the sign-up page without it to register.',
    );
  }
  if (await deps.devices.usedBy(ctx, { userId: referrerId, client: input.client })) {
    throw referralRefused(
      'referral_self',
      'A referral link is for someone new: it cannot be used from where its owner signs in.',
    );
  }
  return referrerId;
}

function referralRefused(key: string, message: string) {
  return invalidInput([{ field: 'referral_code', message, key }]);
}

/** A visitor opens an account and is signed in to it. */
export async function register(deps: AccountsDeps, ctx: ServiceContext, input: RegisterInput) {
  const { repo, sessions, challenge, devices, now } = deps;
  const { client } = input;
  await challenge.verify(ctx, input);
  const email = normalizeEmail(input.email);
  checkRegistration(email, input.password);
  // An account per address: saying so helps people who forgot they registered; the per-IP
  // sign-in limits bound what an enumerator learns.
  if (await repo.userByEmail(email)) throw emailTaken();

  const passwordHash = await hashPassword(input.password);
  const referredById = await referrerOf(deps, ctx, input);
  // Where the person signs up from; they change it in settings (issue 19).
  const place = await deps.places.idsOf(ctx.visitorCountryIso ?? deps.places.defaultCountry);
  const at = now();
  const { user, token, session } = await immediate(repo.db, async (tx) => {
    // Checked again inside the write lock: two sign-ups racing with one address.
    if (await repo.userByEmail(email)) throw emailTaken();
    const created = await repo.insertUser({
      publicId: newId('usr'),
      username: await generateUsername(repo, email),
      email,
      passwordHash,
      referralCode: randomBytes(5).toString('hex'),
      referredById: referredById ?? null,
      countryId: place?.countryId ?? null,
      currencyId: place?.currencyId ?? null,
      isVendor: input.vendors_terms_accepted === true,
      lastSeenAt: at,
      createdAt: at,
    });
    if (referredById !== undefined && deps.bus) {
      const payload: ReferralJoinedPayload = { referrerId: referredById, username: created.username };
      const { bus } = deps;
      tx.afterCommit(() => bus.publish(AFFILIATES_BUS_CHANNEL, { type: 'affiliate.referral_joined', payload }));
    }
    // The account's first device: recorded as confirmed, nothing to review.
    await devices.recordSignIn(ctx, { userId: created.id, client });
    return { user: created, ...(await sessions.create(ctx, { userId: created.id, client })) };
  });
  await sendVerification(deps, user);
  return { token, session, user, redirectTo: safeRedirect(input.back) };
}
