import { Hono } from 'hono';
import * as v from 'valibot';
import { API_KEY_NAME_MAX, API_KEY_SCOPES } from '../../src/lib/shared/api-keys.ts';
import { type AppEnv, personContextOf, signedIn } from '../http/auth.ts';
import { requiredText, validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// A person's API keys (issue 21; docs/api.md): managed with a browser session only (an API key
// cannot reach these routes: server/http/api-key-auth.ts).
//   GET    /rest/v1/api-keys          the active keys, newest first (never a secret)
//   POST   /rest/v1/api-keys          name, scope (read | trade): the key and its secret, shown once (201)
//   DELETE /rest/v1/api-keys/{id}     revokes it at once
// For merchants and identity-verified people; anyone else signed in gets 403.

const CreateBody = v.object({
  name: requiredText(API_KEY_NAME_MAX),
  scope: v.picklist(API_KEY_SCOPES, 'must be read or trade'),
});
const KeyParam = v.object({ id: v.pipe(v.string(), v.regex(/^ck_[0-9A-Za-z]{16}$/, 'must be a key id (ck_…)')) });

export function apiKeyRoutes(services: Services) {
  const { apiKeys } = services;
  return new Hono<AppEnv>()
    .use('/rest/v1/api-keys', signedIn)
    .use('/rest/v1/api-keys/*', signedIn)
    .get('/rest/v1/api-keys', async (c) => c.json({ data: await apiKeys.list(personContextOf(c)) }))
    .post('/rest/v1/api-keys', validate('json', CreateBody), async (c) =>
      c.json({ data: await apiKeys.create(personContextOf(c), c.req.valid('json')) }, 201),
    )
    .delete('/rest/v1/api-keys/:id', validate('param', KeyParam), async (c) =>
      c.json({ data: await apiKeys.revoke(personContextOf(c), c.req.valid('param')) }),
    );
}
