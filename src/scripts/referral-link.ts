import { REFERRAL_CODE_PATTERN, REFERRAL_COOKIE, REFERRAL_COOKIE_DAYS } from '../lib/shared/affiliates.ts';
import { COOKIE_SETTINGS_NAME, parseCookieSettings } from '../lib/shared/cookie-settings.ts';

// A referral link (`/?ref=<code>`, any page) is remembered for 30 days in a first-party cookie,
// so the person who browses a while before signing up is still bound to who sent them: the
// registration page reads it (issue 20). The latest link wins. The cookie belongs to the
// "account" category of the cookie settings and is not written when that is off.

const code = new URLSearchParams(location.search).get('ref');
const consent = document.cookie
  .split('; ')
  .find((pair) => pair.startsWith(`${COOKIE_SETTINGS_NAME}=`))
  ?.slice(COOKIE_SETTINGS_NAME.length + 1);
if (code && REFERRAL_CODE_PATTERN.test(code) && parseCookieSettings(consent).account) {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: static pages have no server to set it; the Cookie Store API is not in every browser yet
  document.cookie = `${REFERRAL_COOKIE}=${code.toLowerCase()}; Path=/; Max-Age=${REFERRAL_COOKIE_DAYS * 86_400}; SameSite=Lax${secure}`;
}
