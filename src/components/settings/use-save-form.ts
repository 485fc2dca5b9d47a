import { type SubmitEvent, useState } from 'react';
import type { ApiResult } from '../../lib/api-client.ts';
import { type Failure, failureOf, noFailure, useSettings } from './context.ts';

// A settings form that saves in one request (password, profile): busy while it posts, the
// failure by field, and the message once saved. What the form checks itself is named first.

export function useSaveForm<R>(fields: readonly string[]) {
  const { t, lang } = useSettings();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();

  /** `problems`: messages by field found before posting; `saved`: the message, or undefined when it failed. */
  const save = async (
    event: SubmitEvent,
    problems: Record<string, string>,
    post: () => Promise<ApiResult<R>>,
    saved: (result: ApiResult<R>) => string | undefined,
  ) => {
    event.preventDefault();
    setDone(undefined);
    if (Object.keys(problems).length > 0) {
      setFailure({ summary: undefined, fields: problems });
      return;
    }
    setBusy(true);
    setFailure(noFailure);
    const result = await post();
    setBusy(false);
    const message = saved(result);
    if (message === undefined) setFailure(failureOf(result, fields, { t, lang }));
    else setDone(message);
  };

  return { busy, failure, done, save };
}
