import type { AstroGlobal } from 'astro';
import { type Locale, localizePath } from '../shared/i18n/locales.ts';
import { callApi, passOnCookies, toSignIn } from './page-api.ts';

// Who may open a console page (decision 150; docs/decisions/165-console-for-moderators.md): the
// signed-in person's own record says staff or not (`isModerator` covers administrators too), and
// the administrators' read of the console (the last ledger check, which changes nothing) tells an
// administrator from a moderator. Signed out → the sign-in page, which comes back; an ordinary or
// a suspended or banned person → not found, as the moderators' queue answers.

export type ConsoleAccess = { role: 'admin' | 'moderator' } | { response: Response };

export async function consoleAccess(Astro: AstroGlobal, locale: Locale): Promise<ConsoleAccess> {
  const api = (path: string) => `${path}?locale=${locale}`;
  const me = await callApi<{ isModerator: boolean; isBanned: boolean; isSuspended: boolean }>(
    Astro,
    api('/rest/v1/users/me'),
  );
  passOnCookies(Astro, me);
  if (me.status === 401 || !me.data) return { response: toSignIn(Astro, locale) };
  if (!me.data.isModerator || me.data.isBanned || me.data.isSuspended) {
    return { response: await Astro.rewrite(localizePath(locale, '/not-found')) };
  }
  const adminRead = await callApi<unknown>(Astro, api('/rest/v1/operators/ledger/verification'));
  return { role: adminRead.status === 200 ? 'admin' : 'moderator' };
}
