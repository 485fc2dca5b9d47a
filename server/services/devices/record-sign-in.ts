import { randomBytes } from 'node:crypto';
import type { ServiceContext } from '../context.ts';
import { deviceFingerprint } from './fingerprint.ts';
import type { InsertedDevice } from './repository.ts';
import { hashToken, REVIEW_TOKEN_TTL_MS } from './review-token.ts';
import type { DeviceClient, DeviceReviewParts } from './types.ts';
import { parseUserAgent } from './user-agent.ts';

/** Never rejects: a device without a place is still a device. */
const place = ({ repo, geolocation, log }: DeviceReviewParts, row: InsertedDevice, ip: string) =>
  (geolocation?.lookup(ip) ?? Promise.resolve(null))
    .then(async (found) => {
      if (found) await repo.setPlace(row, { city: found.city, country: found.countryCode });
    })
    .catch((error: unknown) => log('could not store the device location', error));

/**
 * Called inside the sign-in's transaction. The account's first device is trusted without
 * asking (registration, or accounts older than device review); a later unknown one is stored
 * as pending. Returns the review token to mail after the commit, or undefined.
 */
export async function recordSignIn(
  parts: DeviceReviewParts,
  _ctx: ServiceContext,
  { userId, client }: { userId: number; client: DeviceClient },
): Promise<string | undefined> {
  const { repo, now, placing } = parts;
  const fingerprint = deviceFingerprint(client.userAgent, client.ip);
  const at = now();
  const first = !(await repo.hasAny(userId));
  if (!first && (await repo.isKnown(userId, fingerprint, at - REVIEW_TOKEN_TTL_MS))) return undefined;
  const token = first ? undefined : randomBytes(32).toString('hex');
  const id = await repo.insert({
    userId,
    fingerprint,
    reviewTokenHash: token ? hashToken(token) : null,
    status: first ? 'confirmed' : 'pending',
    ...parseUserAgent(client.userAgent),
    ip: client.ip,
    // Filled by place() once the lookup is done.
    city: null,
    country: null,
    createdAt: at,
  });
  // Not awaited: the lookup may load a database file first, and the sign-in's transaction must not
  // wait for that. Its write runs in this async context: in practice after the commit; if
  // the lookup is done while the transaction is still open, inside it (and rolled back with it).
  const placed = place(parts, { id, userId, fingerprint, createdAt: at }, client.ip);
  if (token) {
    placing.set(token, placed);
    void placed.finally(() => placing.delete(token));
  }
  return token;
}
