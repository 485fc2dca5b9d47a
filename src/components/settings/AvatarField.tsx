import { AVATAR_ACCEPT, AVATAR_MAX_BYTES } from '../../lib/shared/avatar-rules.ts';
import { useSettings } from './context.ts';
import { StatusLine } from './ui.tsx';
import { useAvatarUpload } from './use-avatar-upload.ts';

// The profile photo: upload the file (multipart `file`), then make that upload the avatar
// (process-avatar { fileUrl } → url). The type and size are checked here first so a wrong file
// is not sent at all; the server still decides by the bytes.

export function AvatarField({ username, initialUrl }: { username: string; initialUrl: string | null }) {
  const { t } = useSettings();
  const { url, busy, error, done, upload } = useAvatarUpload(initialUrl);

  return (
    <div className="avatar-field">
      <div className="avatar" aria-hidden={url ? undefined : true}>
        {url ? (
          <img src={url} alt={t('settings.avatar.alt', { username })} width={96} height={96} />
        ) : (
          <span className="avatar-initial">{username.slice(0, 1).toUpperCase()}</span>
        )}
      </div>
      <div className="avatar-actions">
        <span className="field-label">{t('settings.avatar.label')}</span>
        <label className="btn btn-secondary file-button" aria-busy={busy || undefined}>
          <input
            className="visually-hidden"
            type="file"
            accept={AVATAR_ACCEPT}
            onChange={upload}
            disabled={busy}
            aria-describedby="avatar-hint avatar-error"
          />
          {busy ? t('settings.working') : t('settings.avatar.choose')}
        </label>
        <p className="field-hint" id="avatar-hint">
          {t('settings.avatar.hint', { max: AVATAR_MAX_BYTES / 1024 / 1024 })}
        </p>
        <p className="field-error" id="avatar-error" role="alert">
          {error}
        </p>
        <StatusLine message={done} />
      </div>
    </div>
  );
}
