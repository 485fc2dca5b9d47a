import { type ChangeEvent, useState } from 'react';
import { announceAccountChange } from '../../lib/account-change.ts';
import { apiPost } from '../../lib/api-client.ts';
import { AVATAR_MAX_BYTES, looksLikeAvatarImage } from '../../lib/shared/avatar-rules.ts';
import { type Failure, failureOf, localized, noFailure, type SettingsContextValue, useSettings } from './context.ts';

// The avatar's state (url, busy, failure, done) and the upload: checked here first, then the
// file is uploaded and that upload made the avatar.

/** Why a chosen file is refused before it is sent: its type or its size. */
function fileProblem(file: File, t: SettingsContextValue['t']): string | undefined {
  if (!looksLikeAvatarImage(file)) return t('settings.avatar.wrongType');
  if (file.size > AVATAR_MAX_BYTES) return t('settings.avatar.tooLarge', { max: AVATAR_MAX_BYTES / 1024 / 1024 });
  return undefined;
}

export function useAvatarUpload(initialUrl: string | null) {
  const { t, locale, lang } = useSettings();
  const [url, setUrl] = useState(initialUrl);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();

  /** Upload, then make the upload the avatar: the new url, or the failure of either step. */
  const send = async (file: File) => {
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
      // The header shows the new picture without a reload.
      announceAccountChange({ avatarUrl: processed.data.url });
    } else {
      setFailure(failureOf(processed, ['fileUrl'], { t, lang }));
    }
  };

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    // The same file can be chosen again after a failure.
    input.value = '';
    if (!file) return;
    setDone(undefined);
    const problem = fileProblem(file, t);
    if (problem !== undefined) {
      setFailure({ summary: undefined, fields: { file: problem } });
      return;
    }
    setBusy(true);
    setFailure(noFailure);
    await send(file);
  };

  const error = failure.fields.file ?? failure.fields.fileUrl ?? failure.summary;
  return { url, busy, error, done, upload };
}
