import { AvatarField } from './AvatarField.tsx';
import { useSettings } from './context.ts';
import { ProfileForm } from './ProfileForm.tsx';
import type { ProfileSettings, SettingsCountry, SettingsUser } from './types.ts';
import { UsernameField } from './UsernameField.tsx';
import { SectionCard } from './ui.tsx';

export function ProfileSection({
  user,
  settings,
  countries,
}: {
  user: SettingsUser;
  settings: ProfileSettings;
  countries: SettingsCountry[];
}) {
  const { t } = useSettings();
  return (
    <SectionCard id="profile" title={t('settings.profile.title')} lead={t('settings.profile.lead')}>
      <div className="stack">
        <AvatarField username={user.username} initialUrl={user.avatarUrl} />
        <UsernameField
          initialUsername={user.username}
          initiallyChanged={user.isUsernameChanged || settings.usernameChanged}
        />
        <ProfileForm initial={settings} countries={countries} />
      </div>
    </SectionCard>
  );
}
