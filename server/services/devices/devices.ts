import { createHash, randomBytes } from 'node:crypto';
import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import type { DeviceInfo } from '../../../src/lib/shared/views/devices.ts';
import type { EventBus } from '../../realtime/bus.ts';
import { immediate, type ServiceContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { EmailMessage } from '../messaging/messaging.ts';
import { DEVICES_BUS_CHANNEL, type DeviceBusEvent } from '../notifications/trade-events.ts';
import { localizedCountryName } from '../reference/display-names.ts';
import { deviceFingerprint } from './fingerprint.ts';
import { countryName, type Geolocation } from './geolocation.ts';
import type { DevicesRepository, InsertedDevice } from './repository.ts';
import { parseUserAgent } from './user-agent.ts';

// Device review (spec section 7, "castle/review-device"): a sign-in from a browser and network
// the account has not used before is recorded as pending and its owner gets a link to confirm or
// report it. Sign-in itself is not held up: the mail is a tripwire, and a report ends the
// sessions that device holds. City and country come from an offline database (geolocation.ts)
// and are written just after the sign-in's commit: the lookup may have to load its file first,
// and the sign-in's transaction is synchronous.

export const REVIEW_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Device ids are hex (spec section 5): 256 random bits. */
const TOKEN_PATTERN = /^[0-9a-f]{64}$/;

export interface DeviceClient {
  ip: string;
  userAgent: string;
}


export interface DeviceReviewDeps {
  repo: DevicesRepository;
  mailer: { send(message: EmailMessage): Promise<void> };
  /** Without it (or with GEOIP=off) city and country stay null. */
  geolocation?: Pick<Geolocation, 'lookup'>;
  now: () => number;
  log: (message: string, error?: unknown) => void;
  /** Hears of each review requested, after its commit (the notifications subscriber). */
  bus?: EventBus;
  /** The link in the mail: the configured origin (server/site-origin.ts), never the request's Host. */
  siteOrigin: { url(pathAndQuery: string): string };
  /**
   * Ends a reported device's sessions through the session service (accounts/sessions.ts): the one
   * way sessions end, so their sockets are cut too. Named here, not imported: accounts imports
   * this folder (the user-agent parser), so this folder does not import accounts.
   */
  sessions: { invalidateMany(ctx: ServiceContext, input: { sessionIds: readonly string[] }): number };
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const invalidLink = () => new AppError('NOT_FOUND', 'This device review link is invalid, used or expired.');

export function createDeviceReviewService({
  repo,
  mailer,
  geolocation,
  now,
  log,
  bus,
  siteOrigin,
  sessions,
}: DeviceReviewDeps) {
  const pendingDevice = (token: string) => {
    const found = TOKEN_PATTERN.test(token)
      ? repo.pendingByToken(hashToken(token), now() - REVIEW_TOKEN_TTL_MS)
      : undefined;
    if (!found) throw invalidLink();
    return found;
  };

  /** Review token → its row's lookup while in flight, so the mail can wait for it. */
  const placing = new Map<string, Promise<void>>();

  /** Never rejects: a device without a place is still a device. */
  const place = (row: InsertedDevice, ip: string) =>
    (geolocation?.lookup(ip) ?? Promise.resolve(null))
      .then((found) => {
        if (found) repo.setPlace(row, { city: found.city, country: found.countryCode });
      })
      .catch((error: unknown) => log('could not store the device location', error));

  return {
    /**
     * Called inside the sign-in's transaction. The account's first device is trusted without
     * asking (registration, or accounts older than device review); a later unknown one is stored
     * as pending. Returns the review token to mail after the commit, or undefined.
     */
    recordSignIn(
      _ctx: ServiceContext,
      { userId, client }: { userId: number; client: DeviceClient },
    ): string | undefined {
      const fingerprint = deviceFingerprint(client.userAgent, client.ip);
      const at = now();
      const first = !repo.hasAny(userId);
      if (!first && repo.isKnown(userId, fingerprint, at - REVIEW_TOKEN_TTL_MS)) return undefined;
      const token = first ? undefined : randomBytes(32).toString('hex');
      const { lastInsertRowid } = repo.insert({
        userId,
        fingerprint,
        reviewTokenHash: token ? hashToken(token) : null,
        status: first ? 'confirmed' : 'pending',
        ...parseUserAgent(client.userAgent),
        ip: client.ip,
        // Filled by place() once this transaction is over.
        city: null,
        country: null,
        createdAt: at,
      });
      // Settles after the commit (promises never run inside a synchronous transaction).
      const placed = place({ id: Number(lastInsertRowid), userId, fingerprint, createdAt: at }, client.ip);
      if (token) {
        placing.set(token, placed);
        void placed.finally(() => placing.delete(token));
      }
      return token;
    },

    /** After the commit: a mail server that is down must not undo a sign-in. */
    async mailReview(
      _ctx: ServiceContext,
      {
        user,
        token,
        client,
      }: { user: { id?: number; email: string; username: string }; token: string; client: DeviceClient },
    ) {
      const { browser, version, os } = parseUserAgent(client.userAgent);
      // The bell too (device_review), for the account's other open pages; the sign-in has committed.
      if (bus && user.id !== undefined) {
        const event: DeviceBusEvent = {
          type: 'device.review_requested',
          payload: { userId: user.id, browser, os, ip: client.ip, at: now() },
        };
        bus.publish(DEVICES_BUS_CHANNEL, event);
      }
      const what = [browser && `${browser}${version ? ` ${version}` : ''}`, os && `on ${os}`].filter(Boolean).join(' ');
      const link = siteOrigin.url(`/review-device?token=${token}`);
      let where = '';
      let credit = '';
      try {
        // What the review page will show: the stored row, once its lookup is done. Every mail is
        // written in English (none uses the account's `locale` yet), and so is the country's name.
        await placing.get(token);
        const row = TOKEN_PATTERN.test(token) ? repo.pendingByToken(hashToken(token), 0) : undefined;
        const country = row?.country ? countryName(row.country) : null;
        if (country) {
          where = ` (${[row?.city, country].filter(Boolean).join(', ')})`;
          // DB-IP's licence (CC BY 4.0) asks for attribution wherever its results are shown.
          credit = '\nLocation: IP Geolocation by DB-IP, https://db-ip.com\n';
        }
      } catch (error) {
        log('could not read the device location for the e-mail', error);
      }
      try {
        await mailer.send({
          to: user.email,
          subject: 'New sign-in to your Coinfair account',
          text: `Hello ${user.username},\n\nYour account was just signed in from a new device: ${what || 'an unknown browser'}, address ${client.ip}${where}.\n\nWas it you? Confirm or report it here:\n${link}\n\nReporting it signs that device out; if it was not you, change your password too. The link works for 7 days.\n${credit}`,
        });
      } catch (error) {
        log('could not send the device review e-mail', error);
      }
    },

    /** The pending device, its country named in `locale` (ICU; the English name if unknown). */
    review(_ctx: ServiceContext, { token, locale = 'en' }: { token: string; locale?: Locale }): { device: DeviceInfo } {
      const found = pendingDevice(token);
      const english = found.country ? countryName(found.country) : null;
      return {
        device: {
          browser: found.browser,
          version: found.version,
          os: found.os,
          ip: found.ip,
          city: found.city,
          country: found.country && english ? localizedCountryName(locale, found.country, english) : null,
          date: new Date(found.createdAt).toISOString(),
        },
      };
    },

    /**
     * Confirms or reports a pending device, once. A report ends every session of the user that
     * the device holds: sessions keep ip and user agent, which give the same fingerprint.
     */
    decide(
      ctx: ServiceContext,
      { token, isConfirmed }: { token: string; isConfirmed: boolean },
    ): { redirectTo: string; sessionsEnded: number } {
      return immediate(repo.db, () => {
        const found = pendingDevice(token);
        if (!repo.decide(found.id, isConfirmed ? 'confirmed' : 'reported', now())) throw invalidLink();
        if (isConfirmed) return { redirectTo: '/approved-device', sessionsEnded: 0 };
        const ids = repo
          .sessionsOfUser(found.userId)
          .filter((s) => deviceFingerprint(s.userAgent, s.ip) === found.fingerprint)
          .map((s) => s.id);
        return { redirectTo: '/reported-device', sessionsEnded: sessions.invalidateMany(ctx, { sessionIds: ids }) };
      });
    },
  };
}

export type DeviceReviewService = ReturnType<typeof createDeviceReviewService>;
