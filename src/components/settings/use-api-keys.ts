import { useState } from 'react';
import { apiGet, apiPost, apiRequest } from '../../lib/api-client.ts';
import { API_KEY_NAME_MAX, type ApiKeyScope, type ApiKeyView } from '../../lib/shared/api-keys.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';

// The API-keys section's state (issue 21): the keys, the key just created with its secret (held
// in memory only, until the person says they saved it), which action is on its way, the failure
// and the done message.

export interface CreatedKey {
  key: ApiKeyView;
  /** `cs_…`: shown this once, never again. */
  secret: string;
}

const PATH = '/rest/v1/api-keys';

export function useApiKeys(initial: ApiKeyView[]) {
  const { t, locale, lang } = useSettings();
  const [keys, setKeys] = useState(initial);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  /** 'create', or the id of the key being revoked. */
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();

  const starting = (what: string) => {
    setBusy(what);
    setFailure(noFailure);
    setDone(undefined);
  };

  const reload = async () => {
    const result = await apiGet<ApiKeyView[]>(localized(PATH, locale));
    if (result.ok && result.data) setKeys(result.data);
  };

  /** True when the key was made (the caller clears its form). */
  const create = async (name: string, scope: ApiKeyScope): Promise<boolean> => {
    const trimmed = name.trim();
    const fieldError = !trimmed
      ? t('settings.apiKeys.nameRequired')
      : trimmed.length > API_KEY_NAME_MAX
        ? t('settings.apiKeys.nameTooLong', { max: API_KEY_NAME_MAX })
        : undefined;
    if (fieldError) {
      setFailure({ summary: undefined, fields: { name: fieldError } });
      setDone(undefined);
      return false;
    }
    starting('create');
    const result = await apiPost<CreatedKey>(localized(PATH, locale), { name: trimmed, scope });
    setBusy(null);
    if (result.ok && result.data) {
      const made = result.data;
      setCreated(made);
      setKeys((list) => [made.key, ...list.filter((k) => k.id !== made.key.id)]);
      return true;
    }
    setFailure(failureOf(result, ['name', 'scope'], { t, lang }));
    // Full, or a key made elsewhere meanwhile: the list shows what the server has.
    if (result.status === 403) void reload();
    return false;
  };

  const revoke = async (key: ApiKeyView): Promise<boolean> => {
    starting(key.id);
    const result = await apiRequest<{ revoked: boolean }>('DELETE', localized(`${PATH}/${key.id}`, locale));
    setBusy(null);
    setConfirming(null);
    if (result.ok || result.status === 404) {
      // 404: revoked already (another tab). Either way it is gone from the list.
      setKeys((list) => list.filter((k) => k.id !== key.id));
      setDone(t('settings.apiKeys.revoked', { name: key.name }));
      return true;
    }
    setFailure(failureOf(result, [], { t, lang }));
    return false;
  };

  return {
    keys,
    created,
    dismissCreated: () => setCreated(null),
    busy,
    confirming,
    setConfirming,
    failure,
    done,
    create,
    revoke,
  };
}
