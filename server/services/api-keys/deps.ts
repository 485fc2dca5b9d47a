import type { SharedStore } from '../../shared-store.ts';
import type { UserProfileRow, UserRow } from '../shared/account-types.ts';
import type { ApiKeysRepository } from './repository.ts';

/** What every verb of the API-keys service (api-keys.ts wires them) is made from. */
export interface ApiKeysDeps {
  repo: ApiKeysRepository;
  /** API_KEY_ROOT: the secrets' root (secrets.ts). */
  root: string;
  /** Nonces and request counts, shared by every process (Redis with REDIS_URL). */
  store: SharedStore;
  /** The key's owner with the facts a signed-in request carries. */
  person(userId: number): Promise<{ user: UserRow; profile: UserProfileRow } | undefined>;
  now: () => number;
}
