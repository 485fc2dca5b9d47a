import { type SubmitEvent, useEffect, useRef, useState } from 'react';
import { announceAccountChange } from '../../lib/account-change.ts';
import { apiPost } from '../../lib/api-client.ts';
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from '../../lib/shared/input-patterns.ts';
import { type Failure, failureOf, localized, noFailure, type SettingsContextValue, useSettings } from './context.ts';

// The username's state: the saved name, whether it was changed (once only), the draft, the
// confirmation step (its box takes the focus), and the actions ask (check, then confirm) and save.

/** What is wrong with a new name: the pattern and length rule, or being the current name. */
function usernameProblem(value: string, username: string, t: SettingsContextValue['t']): string | undefined {
  const name = value.trim();
  if (!USERNAME_PATTERN.test(name) || name.length < USERNAME_MIN_LENGTH || name.length > USERNAME_MAX_LENGTH) {
    return t('settings.username.rule', { min: USERNAME_MIN_LENGTH, max: USERNAME_MAX_LENGTH });
  }
  if (name === username) return t('settings.username.same');
  return undefined;
}

export function useUsernameField(initialUsername: string, initiallyChanged: boolean) {
  const { t, locale, lang } = useSettings();
  const [username, setUsername] = useState(initialUsername);
  const [changed, setChanged] = useState(initiallyChanged);
  const [draft, setDraft] = useState(initialUsername);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();
  const confirmBox = useRef<HTMLDivElement>(null);
  // The button that asked disappears: focus goes to the question instead of being lost.
  useEffect(() => {
    if (confirming) confirmBox.current?.focus();
  }, [confirming]);

  const ask = (event: SubmitEvent) => {
    event.preventDefault();
    const problem = usernameProblem(draft, username, t);
    setFailure(problem ? { summary: undefined, fields: { username: problem } } : noFailure);
    if (!problem) setConfirming(true);
  };

  const save = async () => {
    setBusy(true);
    const result = await apiPost<{ username: string }>(localized('/rest/v1/users/set-username', locale), {
      username: draft.trim(),
    });
    setBusy(false);
    setConfirming(false);
    if (result.ok && result.data) {
      setUsername(result.data.username);
      setChanged(true);
      // The header shows the new name without a reload.
      announceAccountChange({ username: result.data.username });
      setDone(t('settings.username.saved'));
    } else {
      setFailure(failureOf(result, ['username'], { t, lang }));
    }
  };

  const edit = (value: string) => {
    setDraft(value);
    setConfirming(false);
  };

  return { username, changed, draft, edit, confirming, setConfirming, busy, failure, done, confirmBox, ask, save };
}

export type UsernameState = ReturnType<typeof useUsernameField>;
