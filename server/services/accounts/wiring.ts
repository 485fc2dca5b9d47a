import { createMemoryStore } from '../../shared-store.ts';
import { createApiKeysService } from '../api-keys/api-keys.ts';
import { createApiKeysRepository } from '../api-keys/repository.ts';
import { DEVELOPMENT_API_KEY_ROOT } from '../api-keys/secrets.ts';
import { createAvatarService } from '../avatar/avatar.ts';
import { createAvatarRepository } from '../avatar/repository.ts';
import { createAvatarStorage } from '../avatar/storage.ts';
import { createChallengeService } from '../challenge/challenge.ts';
import { createDeviceReviewService } from '../devices/devices.ts';
import { createGeolocation } from '../devices/geolocation.ts';
import { createDevicesRepository } from '../devices/repository.ts';
import { createPasswordService } from '../passwords/passwords.ts';
import { createPasswordsRepository } from '../passwords/repository.ts';
import { createSettingsRepository } from '../settings/repository.ts';
import { createSettingsService } from '../settings/settings.ts';
import { createVendorTermsService } from '../settings/vendor-terms.ts';
import { createTwoFactorService } from '../two-factor/two-factor.ts';
import type { Wiring } from '../wiring.ts';
import { createAccountsService } from './accounts.ts';
import { createAccountsRepository } from './repository.ts';
import { createSessionService } from './sessions.ts';
import { createThrottle } from './throttle.ts';

// How server/services/container.ts wires sign-in, sessions, the second factor, devices, passwords,
// the person's own settings and API keys.

/** Sign-in, sessions, second factor, devices, passwords and the person's own settings. */
export function createAccountServices({ db, config, log, now, bus, siteOrigin, mailer, sleep, places, store }: Wiring) {
  const accountsRepo = createAccountsRepository(db);
  // The shared store (Redis) when there is one, else this process's memory.
  const shared = store ?? createMemoryStore({ now });
  // Announces every session end on the bus: the realtime hub cuts the sockets it authorised.
  const sessions = createSessionService({ repo: accountsRepo, now, bus, store: shared });
  const challenge = createChallengeService({ db, now, enabled: config.AUTH_CHALLENGE === 'on' });
  // One throttle: wrong passwords and wrong second-factor codes share an account's limit.
  // With the challenge on, an account past its limit asks for it instead of refusing its owner.
  const throttle = createThrottle({ repo: accountsRepo, now, challengeEnabled: config.AUTH_CHALLENGE === 'on' });
  const twoFactor = createTwoFactorService({ db, now, throttle });
  const settingsRepo = createSettingsRepository(db);
  const devices = createDeviceReviewService({
    repo: createDevicesRepository(db),
    mailer,
    // Loads its database on the first public address, never at start.
    geolocation: createGeolocation({ enabled: config.GEOIP !== 'off', log: log.error }),
    now,
    log: log.error,
    bus,
    siteOrigin,
    sessions,
  });
  const signIn = { sessions, throttle, challenge, secondFactor: twoFactor, mailer, siteOrigin, now, log: log.error };
  return {
    sessions,
    challenge,
    twoFactor,
    settings: createSettingsService({
      repo: settingsRepo,
      isCountry: async (id) => (await places.isoOfId(id)) !== undefined,
      now,
    }),
    vendorTerms: createVendorTermsService({ repo: settingsRepo, sessions }),
    avatar: createAvatarService({
      repo: createAvatarRepository(db),
      storage: createAvatarStorage(config.UPLOADS_DIR),
      now,
      log: log.error,
    }),
    devices,
    // Keys for bots (issue 21): nonces and request counts in the shared store.
    apiKeys: createApiKeysService({
      repo: createApiKeysRepository(db),
      root: config.API_KEY_ROOT ?? DEVELOPMENT_API_KEY_ROOT,
      store: shared,
      person: async (id) => {
        const [user, profile] = await Promise.all([accountsRepo.userById(id), accountsRepo.userProfile(id)]);
        return user && profile ? { user, profile } : undefined;
      },
      now,
    }),
    passwords: createPasswordService({ repo: createPasswordsRepository(db), accounts: accountsRepo, ...signIn }),
    accounts: createAccountsService({ repo: accountsRepo, devices, sleep, places, bus, ...signIn }),
  };
}
