// The progressive behaviours every marketing page shares, bundled as one small module.
import './header.ts';
import './theme.ts';
import './bell.ts';
import './disclosure.ts';
import './cookie-consent.ts';
import './welcome.ts';
import './local-currency.ts';
import './referral-link.ts';

// Signed in (the pre-paint script's class): the account part, kept out of this bundle (AccountLive.astro).
const accountLive = document.querySelector<HTMLTemplateElement>('template[data-account-live]');
if (accountLive && document.documentElement.classList.contains('signed-in')) {
  document.body.append(accountLive.content.cloneNode(true));
  accountLive.remove();
}
