import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import type { PersonContext, ServiceContext } from '../context.ts';
import {
  type CurrentUserPlace,
  placeFields,
  profileFacts,
  toCurrentUser,
  type VerificationFlags,
} from './current-user.ts';
import type { AccountsDeps } from './types.ts';

/** Where the reader is: their own country when they chose or registered with one, else the request's. */
async function placeOf(
  { places }: Pick<AccountsDeps, 'places'>,
  ctx: ServiceContext,
  ownCountryIso: string | null,
  locale: Locale,
): Promise<CurrentUserPlace> {
  const visitorCountryIso = ctx.visitorCountryIso ?? places.defaultCountry;
  const here = await places.country(visitorCountryIso, locale);
  const own = ownCountryIso && ownCountryIso !== visitorCountryIso ? await places.country(ownCountryIso, locale) : here;
  return { country: own ?? here ?? null, visitorCountryIso, locationCurrency: here?.currency ?? 'USD' };
}

/** The signed-in person as spec section 3 shows them; `profile` came with the session. */
export async function readCurrentUser(
  deps: AccountsDeps,
  ctx: PersonContext,
  { locale, verification }: { locale: Locale; verification?: VerificationFlags },
) {
  const { user, profile } = ctx.auth;
  const { extras } = profileFacts(profile);
  const place = { ...(await placeOf(deps, ctx, profile.countryIso, locale)), currency: profile.currencyCode };
  // Read here rather than with the session's profile: only current-user answers need these.
  const [btcTraded, counts] = await Promise.all([deps.repo.btcTraded(user.id), deps.repo.currentUserCounts(user.id)]);
  const withTrades = { ...extras, btcTraded, ...counts };
  return toCurrentUser(user, place, locale, verification ? { ...withTrades, verification } : withTrades);
}

/** A visitor's current user (spec section 3): not signed in, and where they are. */
export async function readVisitor(deps: AccountsDeps, ctx: ServiceContext, { locale }: { locale: Locale }) {
  return { isLogged: false as const, ...placeFields(await placeOf(deps, ctx, null, locale)) };
}
