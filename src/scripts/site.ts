// The progressive behaviours every marketing page shares, bundled as one small module.
import './header.ts';
import './theme.ts';
import './bell.ts';
import './disclosure.ts';
import './cookie-consent.ts';
import './welcome.ts';
import './account.ts';
import './local-currency.ts';
import './referral-link.ts';
