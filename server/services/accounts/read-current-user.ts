import type { PersonContext } from '../context.ts';
import { profileFacts, toCurrentUser, type VerificationFlags } from './current-user.ts';
import type { AccountsDeps } from './types.ts';

/** The signed-in person as spec section 3 shows them; `profile` came with the session. */
export async function readCurrentUser(
  { repo }: AccountsDeps,
  ctx: PersonContext,
  { locale, verification }: { locale: string; verification?: VerificationFlags },
) {
  const { user, profile } = ctx.auth;
  const { place, extras } = profileFacts(profile);
  // Read here rather than with the session's profile: only current-user answers need the sum.
  const withTrades = { ...extras, btcTraded: await repo.btcTraded(user.id) };
  return toCurrentUser(user, place, locale, verification ? { ...withTrades, verification } : withTrades);
}
