import { AvatarField } from './AvatarField.tsx';
import { useSettings } from './context.ts';
import { ProfileForm } from './ProfileForm.tsx';
import type { ProfileSettings, SettingsUser } from './types.ts';
import { UsernameField } from './UsernameField.tsx';
import { SectionCard } from './ui.tsx';

export function ProfileSection({ user, settings }: { user: SettingsUser; settings: ProfileSettings }) {
  const { t } = useSettings();
  return (
    <SectionCard id="profile" title={t('settings.profile.title')} lead={t('settings.profile.lead')}>
      <div className="stack">
        <AvatarField username={user.username} initialUrl={user.avatarUrl} />
        <UsernameField
          initialUsername={user.username}
          initiallyChanged={user.isUsernameChanged || settings.usernameChanged}
        />
        <ProfileForm initial={settings} />
      </div>
    </SectionCard>
  );
}
