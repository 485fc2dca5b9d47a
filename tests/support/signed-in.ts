import { CSRF_COOKIE, CSRF_HEADER } from '../../server/http/csrf.ts';
import { systemContext } from '../../server/services/context.ts';
import type { TestApp } from './test-app.ts';

/**
 * A demo user with a fresh session (no sign-in round trip): its row ids, the cookie header a
 * browser would send, and JSON requests that carry the session's CSRF token as our pages do.
 */
export async function signedInAs(t: TestApp, email: string) {
  const row = await t.db.sql.get<{ id: number; publicId: string }>(
    'SELECT id, public_id AS publicId FROM users WHERE email = ?',
    [email],
  );
  if (!row) throw new Error(`no demo user ${email}`);
  const { token, session } = await t.services.sessions.create(systemContext('test'), {
    userId: row.id,
    client: { ip: '203.0.113.7', userAgent: 'test' },
  });
  const cookie = `session=${token}; ${CSRF_COOKIE}=${session.csrfToken}`;
  const headers = { cookie, [CSRF_HEADER]: session.csrfToken };
  return {
    ...row,
    cookie,
    get: (path: string) => t.send(path, { headers }),
    headers,
    post: (path: string, json: unknown = {}) => t.send(path, { method: 'POST', headers, json }),
    del: (path: string) => t.send(path, { method: 'DELETE', headers }),
  };
}
