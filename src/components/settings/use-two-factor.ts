import { useState } from 'react';
import { apiPost } from '../../lib/api-client.ts';
import { type Failure, failureOf, localized, noFailure, useSettings } from './context.ts';
import type { SetupSecret } from './TwoFactorSetup.tsx';

// The two-factor section's state: the setup secret while setting up, the recovery codes to show
// once, busy, failure and done; `start` asks the server for a new secret.

export function useTwoFactor() {
  const { t, locale, lang } = useSettings();
  const [setup, setSetup] = useState<SetupSecret>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>(noFailure);
  const [done, setDone] = useState<string>();

  const start = async () => {
    setBusy(true);
    setFailure(noFailure);
    setDone(undefined);
    const result = await apiPost<SetupSecret>(localized('/rest/v1/users/2fa/setup', locale));
    setBusy(false);
    if (result.ok && result.data) setSetup({ secret: result.data.secret, qrSvg: result.data.qrSvg });
    else setFailure(failureOf(result, [], { t, lang }));
  };

  return { setup, setSetup, recoveryCodes, setRecoveryCodes, busy, failure, done, setDone, start };
}

export type TwoFactorState = ReturnType<typeof useTwoFactor>;
