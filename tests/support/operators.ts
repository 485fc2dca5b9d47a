import { generateSync } from 'otplib';
import { expect } from 'vitest';
import { requestScope } from '../../server/observability/log.ts';
import { type browserSession, signedInSession } from './browser-session.ts';
import type { TestApp } from './test-app.ts';

// The operator console's tests (tests/api/operators-*.test.ts): an administrator who turned two-factor
// on through the API, and a fresh code for each change (a TOTP step is spent once: the test clock
// moves 30 s before each). `act` sends a change as the console will, inside a request scope whose id
// the audit rows must keep.

export const OPERATORS = '/rest/v1/operators';

/** A browser signed in to `email` with two-factor authentication turned on, and its codes. */
export async function operatorWithFactor(t: TestApp, email = 'admin@example.com') {
  const b = await signedInSession(t, email);
  const setup = await b.post('/rest/v1/users/2fa/setup');
  expect(setup.status, await setup.clone().text()).toBe(200);
  const { secret } = (await setup.json()).data as { secret: string };
  const codeNow = () => generateSync({ secret, epoch: Math.floor(t.clock.now / 1000) });
  const confirm = await b.post('/rest/v1/users/2fa/confirm', { code: codeNow() });
  expect(confirm.status, await confirm.clone().text()).toBe(200);
  /** A code of the next 30-second step, never spent before. */
  const code = () => {
    t.clock.now += 30_000;
    return codeNow();
  };
  /** A code of a step far from now: well formed, never right. */
  const wrongCode = () => generateSync({ secret, epoch: Math.floor((t.clock.now + 3_600_000) / 1000) });
  return { browser: b, code, wrongCode };
}

/** A POST of the console with the request id `requestId` in scope, as server/main.ts gives every request. */
export function post(b: Browser, path: string, json: unknown, requestId = 'req-operator-test') {
  return requestScope.run({ requestId }, () => b.post(`${OPERATORS}${path}`, json));
}

export type Browser = ReturnType<typeof browserSession>;

/** The audit rows about `targetId`, oldest first. */
export function auditRowsOf(t: TestApp, targetId: string | null) {
  return t.db.sql.all<{
    actorType: string;
    actorId: string | null;
    actorName: string;
    action: string;
    outcome: string;
    reason: string | null;
    details: string | null;
    requestId: string | null;
  }>(
    `SELECT actor_type AS actorType, actor_id AS actorId, actor_name AS actorName, action, outcome, reason, details,
       request_id AS requestId
     FROM operator_audit WHERE ${targetId === null ? 'target_id IS NULL' : 'target_id = ?'} ORDER BY id`,
    targetId === null ? [] : [targetId],
  );
}
