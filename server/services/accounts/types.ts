import type { EventBus } from '../../realtime/bus.ts';
import type { ServiceContext } from '../context.ts';
import type { EmailMessage } from '../messaging/messaging.ts';
import type { Places } from '../places/places.ts';
import type { ClientInfo } from '../shared/account-types.ts';
import type { AccountsRepository } from './repository.ts';
import type { SessionService } from './sessions.ts';
import type { Throttle } from './throttle.ts';

// The shapes the accounts verbs share: what callers send, and what each verb is given.

/**
 * Who is asking (server/services/shared/account-types.ts). Deliberately no origin: links in mail
 * come from the configured site origin (server/site-origin.ts), never from the request's Host
 * header, which an attacker writes.
 */
export type { ClientInfo };

/** The configured origin's absolute URLs (server/site-origin.ts). */
export interface SiteLinks {
  url(pathAndQuery: string): string;
}

export interface ChallengeFields {
  geetest_challenge?: string | undefined;
  geetest_validate?: string | undefined;
  geetest_seccode?: string | undefined;
}

/** The anti-bot challenge a sign-in form solves (server/services/challenge). */
export interface ChallengeCheck {
  verify(ctx: ServiceContext, input: ChallengeFields): Promise<void>;
}

/** The second factor's question at sign-in (server/services/two-factor). */
export interface SignInSecondFactor {
  verify(
    ctx: ServiceContext,
    input: { userId: number; purpose: 'login'; code?: string | undefined },
  ): Promise<'passed' | 'failed' | 'disabled'>;
}

export interface AccountsDeps {
  repo: AccountsRepository;
  sessions: SessionService;
  throttle: Throttle;
  challenge: ChallengeCheck;
  /** Asked only after the password was right. */
  secondFactor: SignInSecondFactor;
  mailer: { send(message: EmailMessage): Promise<void> };
  /** Device review (server/services/devices): records each sign-in's device, mails a new one. */
  devices: {
    recordSignIn(ctx: ServiceContext, input: { userId: number; client: ClientInfo }): Promise<string | undefined>;
    mailReview(
      ctx: ServiceContext,
      input: { user: { id?: number; email: string; username: string }; token: string; client: ClientInfo },
    ): Promise<void>;
    /** Whether `userId` ever signed in from this client's address, or its browser on its network. */
    usedBy(ctx: ServiceContext, input: { userId: number; client: ClientInfo }): Promise<boolean>;
  };
  siteOrigin: SiteLinks;
  /** Countries, their currencies and popular methods (server/services/places). */
  places: Pick<Places, 'country' | 'idsOf' | 'defaultCountry'>;
  now: () => number;
  /** Waits before answering a wrong password past the account limit (tests pass one that returns at once). */
  sleep: (ms: number) => Promise<void>;
  log: (message: string, error?: unknown) => void;
  /** Tells a referrer that someone signed up with their link (the notifications subscriber); optional in tests. */
  bus?: EventBus;
}

export interface RegisterInput extends ChallengeFields {
  email: string;
  password: string;
  back?: string | undefined;
  entry_point?: string | undefined;
  referral_code?: string | undefined;
  vendors_terms_accepted?: boolean | undefined;
  client: ClientInfo;
}

export interface LoginInput extends ChallengeFields {
  email: string;
  password: string;
  back?: string | undefined;
  /** A TOTP or recovery code, when the account asks for one at sign-in. */
  code?: string | undefined;
  client: ClientInfo;
}
