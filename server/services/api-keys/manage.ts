import { newId } from '../../../db/ids.ts';
import { API_KEY_NAME_MAX, type ApiKeyScope, type ApiKeyView, MAX_API_KEYS } from '../../../src/lib/shared/api-keys.ts';
import type { PersonContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import type { ApiKeysDeps } from './deps.ts';
import type { ApiKeyRow } from './repository.ts';
import { deriveSecret, newSalt, sha256Hex } from './secrets.ts';

// A person's API keys in settings (issue 21): list, create (the secret shown once), revoke. Merchants
// and identity-verified people may hold keys; managing them needs a browser session (docs/api.md).

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

export const apiKeyView = (row: ApiKeyRow): ApiKeyView => ({
  id: row.publicId,
  name: row.name,
  scope: row.scope,
  createdAt: seconds(row.createdAt) as number,
  lastUsedAt: seconds(row.lastUsedAt),
  lastUsedIp: row.lastUsedIp,
});

function mayHoldKeys(ctx: PersonContext): number {
  const { user } = ctx.auth;
  if (!user.isMerchant && user.idVerifiedAt === null)
    throw new AppError('FORBIDDEN', 'API keys are for merchants and people whose identity is verified.', {
      key: 'api_keys_need_id',
    });
  return user.id;
}

export async function listKeys({ repo }: ApiKeysDeps, ctx: PersonContext): Promise<ApiKeyView[]> {
  return (await repo.ofUser(mayHoldKeys(ctx))).map(apiKeyView);
}

/** A new key and its secret: the only time the secret is ever shown. */
export async function createKey(
  { repo, root, now }: ApiKeysDeps,
  ctx: PersonContext,
  input: { name: string; scope: ApiKeyScope },
): Promise<{ key: ApiKeyView; secret: string }> {
  const userId = mayHoldKeys(ctx);
  const name = input.name.trim().slice(0, API_KEY_NAME_MAX);
  if ((await repo.count(userId)) >= MAX_API_KEYS)
    throw new AppError('FORBIDDEN', `At most ${MAX_API_KEYS} keys at once; revoke one first.`, {
      key: 'api_keys_too_many',
      params: { max: MAX_API_KEYS },
    });
  const publicId = newId('ck');
  const salt = newSalt();
  const secret = deriveSecret(root, publicId, salt);
  await repo.insert({
    publicId,
    userId,
    name,
    scope: input.scope,
    salt,
    secretHash: sha256Hex(secret),
    createdAt: now(),
  });
  return { key: apiKeyView((await repo.active(publicId)) as ApiKeyRow), secret };
}

export async function revokeKey({ repo, now }: ApiKeysDeps, ctx: PersonContext, input: { id: string }) {
  const userId = mayHoldKeys(ctx);
  if (!(await repo.revoke(userId, input.id, now()))) throw notFound('API key', 'id');
  return { revoked: true };
}
