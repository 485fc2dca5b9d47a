import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// The `auth_key` of spec section 7's push-authorize: a short-lived grant, signed with HMAC-SHA256,
// naming a user, the session it was issued to and the channels they were allowed then. A socket
// presents it in an `auth` frame; the hub then lets it join those channels (and asks the authoriser
// again, so access lost meanwhile stays lost). The key dies with its session: the hub refuses a key
// of an ended session and drops what one granted when its session ends. The browser treats the key
// as an opaque string (src/lib/realtime-client.ts). The secret is per process: keys live minutes, and a restart drops
// every socket anyway, whose page then asks for a new key (docs/decisions/065-push-authorisation.md, "Push keys").

export interface PushGrant {
  userId: number;
  userPublicId: string;
  /** The public id (`ses_…`) of the session the key was issued to; never the token or its hash. */
  sessionPublicId: string;
  channels: string[];
  /** Unix ms. */
  expiresAt: number;
}

export const PUSH_KEY_TTL_MS = 10 * 60 * 1000;

export function createPushKeys({
  now = Date.now,
  ttlMs = PUSH_KEY_TTL_MS,
  secret = randomBytes(32),
}: {
  now?: () => number;
  ttlMs?: number;
  secret?: Buffer;
} = {}) {
  const sign = (body: string) => createHmac('sha256', secret).update(body).digest('base64url');

  return {
    ttlMs,
    issue(grant: Omit<PushGrant, 'expiresAt'>): { authKey: string; expiresAt: number } {
      const expiresAt = now() + ttlMs;
      const body = Buffer.from(
        JSON.stringify({
          u: grant.userId,
          p: grant.userPublicId,
          s: grant.sessionPublicId,
          c: grant.channels,
          e: expiresAt,
        }),
      ).toString('base64url');
      return { authKey: `${body}.${sign(body)}`, expiresAt };
    },

    /** The grant of a key this process signed, or null (forged, malformed). Expiry is the caller's to check. */
    verify(key: unknown): PushGrant | null {
      if (typeof key !== 'string' || key.length > 8192) return null;
      const [body = '', signature = '', extra] = key.split('.');
      if (extra !== undefined) return null;
      const expected = Buffer.from(sign(body));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
      try {
        const { u, p, s, c, e } = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
        if (!Number.isInteger(u) || typeof p !== 'string' || typeof s !== 'string') return null;
        if (!Array.isArray(c) || !Number.isFinite(e)) return null;
        return {
          userId: u,
          userPublicId: p,
          sessionPublicId: s,
          channels: c.filter((x: unknown) => typeof x === 'string'),
          expiresAt: e,
        };
      } catch {
        return null;
      }
    },
  };
}

export type PushKeys = ReturnType<typeof createPushKeys>;
