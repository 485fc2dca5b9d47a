import { useMemo, useState } from 'react';
import { islandTranslator } from '../../lib/shared/i18n/island-messages.ts';
import { ApiKeysSection } from './ApiKeysSection.tsx';
import { CompromisedBanner, EmailBanner } from './Banners.tsx';
import { CookiesSection } from './CookiesSection.tsx';
import { SettingsContext } from './context.ts';
import { DevicesSection } from './DevicesSection.tsx';
import { ExportSection } from './ExportSection.tsx';
import { PasswordSection } from './PasswordSection.tsx';
import { PhoneSection } from './PhoneSection.tsx';
import { ProfileSection } from './ProfileSection.tsx';
import { SettingsNav } from './SettingsNav.tsx';
import { TelegramSection } from './TelegramSection.tsx';
import { TwoFactorSection } from './TwoFactorSection.tsx';
import type { SettingsProps } from './types.ts';

// The account settings island: section nav beside (desktop) or above (phone) one card per
// section. Everything it shows first comes from the server render; each section then talks to
// the API on its own. State shared across sections lives here: the two-factor status (the
// password form asks for a code when sign-in needs one) and a counter that tells the device list
// to reload after a change that ended sessions.

export default function SettingsApp(props: SettingsProps) {
  const { locale, lang, messages, user } = props;
  const context = useMemo(() => ({ t: islandTranslator(messages), locale, lang }), [messages, locale, lang]);
  const [twoFactor, setTwoFactor] = useState(props.twoFactor);
  const [compromised, setCompromised] = useState(props.compromised);
  const [sessionsVersion, setSessionsVersion] = useState(0);
  const sessionsChanged = () => setSessionsVersion((n) => n + 1);

  return (
    <SettingsContext.Provider value={context}>
      <div className="settings-layout">
        <SettingsNav />
        <div className="settings-sections">
          {compromised && <CompromisedBanner />}
          {!user.isEmailVerified && <EmailBanner email={user.email} />}
          <ProfileSection user={user} settings={props.settings} countries={props.countries} />
          <PhoneSection verified={user.isPhoneVerified} verifiedNumber={user.phone} />
          <TelegramSection userId={user.id} initiallySubscribed={props.settings.telegramSubscribed} />
          <PasswordSection
            accountName={user.email}
            codeRequired={twoFactor.state === 'enabled' && twoFactor.login}
            onChanged={() => {
              setCompromised(false);
              sessionsChanged();
              // The warning's reason is gone; a reload must not bring it back.
              const url = new URL(location.href);
              if (url.searchParams.has('compromised')) {
                url.searchParams.delete('compromised');
                history.replaceState(history.state, '', url);
              }
            }}
          />
          <TwoFactorSection status={twoFactor} onStatus={setTwoFactor} onSessionRotated={sessionsChanged} />
          <DevicesSection initial={props.devices} version={sessionsVersion} />
          <ApiKeysSection initial={props.apiKeys} />
          <ExportSection initial={props.exports} today={props.today} />
          <CookiesSection initial={props.cookies} />
        </div>
      </div>
    </SettingsContext.Provider>
  );
}
