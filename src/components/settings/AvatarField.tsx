import { type ChangeEvent, useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { AVATAR_ACCEPT, AVATAR_MAX_BYTES, looksLikeAvatarImage } from '../../lib/shared/avatar-rules.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';
import { StatusLine } from './ui.tsx';

// The profile photo: upload the file (multipart `file`), then make that upload the avatar
// (process-avatar { fileUrl } → url). The type and size are checked here first so a wrong file
// is not sent at all; the server still decides by the bytes.

export function AvatarField({ username, initialUrl }: { username: string; initialUrl: string | null }) {
  const { t, locale, lang } = useSettings();
  const [url, setUrl] = useState(initialUrl);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();
  const error = failure.fields.file ?? failure.fields.fileUrl ?? failure.summary;

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // The same file can be chosen again after a failure.
    input.value = '';
    if (!file) return;
    setDone(undefined);
    if (!looksLikeAvatarImage(file)) {
      setFailure({ summary: undefined, fields: { file: t('settings.avatar.wrongType') } });
      return;
    }
    if (file.size > AVATAR_MAX_BYTES) {
      setFailure({
        summary: undefined,
        fields: { file: t('settings.avatar.tooLarge', { max: AVATAR_MAX_BYTES / 1024 / 1024 }) },
      });
      return;
    }
    setBusy(true);
    setFailure(noFailure);
    const form = new FormData();
    form.append('file', file);
    const uploaded = await apiPost<{ fileUrl: string }>(localized('/rest/v1/users/avatar-upload', locale), form);
    if (!uploaded.ok || !uploaded.data) {
      setBusy(false);
      setFailure(failureOf(uploaded, ['file'], { t, lang }));
      return;
    }
    const processed = await apiPost<{ url: string }>(localized('/rest/v1/users/process-avatar', locale), {
      fileUrl: uploaded.data.fileUrl,
    });
    setBusy(false);
    if (processed.ok && processed.data) {
      setUrl(processed.data.url);
      setDone(t('settings.avatar.saved'));
    } else {
      setFailure(failureOf(processed, ['fileUrl'], { t, lang }));
    }
  };

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
