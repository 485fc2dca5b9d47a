import { bindVerb } from '../context.ts';
import { pastTrades } from './past-trades.ts';
import { publicProfile } from './profile.ts';
import { setTrust } from './trust.ts';
import type { ProfilesDeps } from './types.ts';

// Public profiles (spec section 3 "User profile"), what one person thinks of another (trusted,
// blocked) and a person's past trades (spec section 7, users/{username}/past-trades). One verb
// per file; this wires them to the area's deps.

export { PAST_TRADES_PAGE_SIZE, type PastTradeView } from './past-trades.ts';
export type { ProfileView, Relation } from './profile.ts';
export type { ProfilesDeps } from './types.ts';

/** The verb with the area's deps bound: what callers see is `verb(ctx, input)`. */
export function createProfilesService(deps: ProfilesDeps) {
  return {
    /** A person's public profile, as the reader (or a visitor) sees it. */
    profile: bindVerb(deps, publicProfile),
    /** Trust, block or neither; one relation per pair and direction. */
    setTrust: bindVerb(deps, setTrust),
    /** Ended trades of a person, newest first, for that person and moderators only. */
    pastTrades: bindVerb(deps, pastTrades),
  };
}

export type ProfilesService = ReturnType<typeof createProfilesService>;
