import { bindVerb, type PersonContext } from '../context.ts';
import { authenticate, type SignedRequest } from './authenticate.ts';
import type { ApiKeysDeps } from './deps.ts';
import { createKey, listKeys, revokeKey } from './manage.ts';

// API keys for bots (issue 21, docs/api.md, decision 116): a person's keys in settings, and the
// check of a signed request the HTTP layer (server/http/api-key-auth.ts) runs before any route.

export { type KeyAuth, rateLimited, type SignedRequest } from './authenticate.ts';
export type { ApiKeysDeps } from './deps.ts';

export function createApiKeysService(deps: ApiKeysDeps) {
  return {
    list: (ctx: PersonContext) => listKeys(deps, ctx),
    create: bindVerb(deps, createKey),
    revoke: bindVerb(deps, revokeKey),
    /** Infrastructure: no context, the signed request is the input. */
    authenticate: (request: SignedRequest) => authenticate(deps, request),
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
