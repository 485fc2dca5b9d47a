import type { ApiKeyView } from '../../lib/shared/api-keys.ts';
import type { CookieSettings } from '../../lib/shared/cookie-settings.ts';
import type { ExportView } from '../../lib/shared/exports.ts';
import type { IslandMessages } from '../../lib/shared/i18n/island-messages.ts';
import type { SessionDevice } from '../../lib/shared/views/sessions.ts';
import type { ProfileSettings, TwoFactorStatus } from '../../lib/shared/views/settings.ts';

export type { ApiKeyView, ProfileSettings, SessionDevice, TwoFactorStatus };

// What the settings page loads on the server (src/pages/[...locale]/settings.astro) and hands the
// island as props: the answers of the API calls the island would otherwise make on its first
// render, so the page is complete before hydration.

/** The parts of GET /rest/v1/users/me the settings read. */
export interface SettingsUser {
  /** `usr_…`: names the personal realtime channels (`telegram:<id>`). */
  id: string;
  username: string;
  email: string;
  avatarUrl: string | null;
  isUsernameChanged: boolean;
  isEmailVerified: boolean;
  isPhoneVerified: boolean;
  /** The verified number (E.164), or null. */
  phone: string | null;
}

export interface SettingsCountry {
  id: number;
  name: string;
  currency: string;
}

export interface SettingsProps {
  /** The page's locale (`en`, `de`…): API calls ask for their errors in it. */
  locale: string;
  /** Its BCP 47 tag, for dates. */
  lang: string;
  messages: IslandMessages;
  user: SettingsUser;
  settings: ProfileSettings;
  twoFactor: TwoFactorStatus;
  cookies: CookieSettings;
  devices: SessionDevice[];
  /** GET /rest/v1/api-keys (issue 21); null for people who may hold none (neither merchant nor ID-verified). */
  apiKeys: ApiKeyView[] | null;
  /** GET /rest/v1/exports (issue 24): the person's data exports, newest first. */
  exports: ExportView[];
  /** The server's day in UTC (YYYY-MM-DD): the export form's default end and latest start. */
  today: string;
  /** Every country, for the profile's country field (issue 19). */
  countries: SettingsCountry[];
  /** `?compromised=1`: the sign-in said the password is in leaked lists. */
  compromised: boolean;
}
