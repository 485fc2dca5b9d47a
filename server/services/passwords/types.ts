import type { AccountsRepository } from '../accounts/repository.ts';
import type { SessionService } from '../accounts/sessions.ts';
import type { Throttle } from '../accounts/throttle.ts';
import type { ChallengeCheck, ChallengeFields, SignInSecondFactor, SiteLinks } from '../accounts/types.ts';
import type { ServiceContext } from '../context.ts';
import type { EmailMessage } from '../messaging/messaging.ts';
import type { ClientInfo } from '../shared/account-types.ts';
import type { PasswordsRepository } from './repository.ts';

// The shapes the password verbs share: what callers send, and what each verb is given.

export interface ChangePasswordInput {
  currentPassword: string;
  newPassword: string;
  /** A TOTP or recovery code, when the account asks for one at sign-in. */
  code?: string | undefined;
  client: ClientInfo;
}

export interface ForgotPasswordInput extends ChallengeFields {
  email: string;
  client: ClientInfo;
}

export interface ResetPasswordInput {
  token: string;
  password: string;
  code?: string | undefined;
  client: ClientInfo;
}

export interface PasswordsDeps {
  repo: PasswordsRepository;
  accounts: Pick<AccountsRepository, 'userByEmail' | 'userById' | 'markEmailVerified'>;
  sessions: Pick<SessionService, 'create' | 'invalidateAll'>;
  throttle: Pick<Throttle, 'reservePassword' | 'succeeded' | 'failed' | 'clearAccount'>;
  challenge: ChallengeCheck;
  /** Asked for when it protects sign-in. */
  secondFactor: SignInSecondFactor & {
    purposes(ctx: ServiceContext, input: { userId: number }): Promise<{ login: boolean }>;
  };
  mailer: { send(message: EmailMessage): Promise<void> };
  /** Links in the mails: the configured origin, never the request's Host. */
  siteOrigin: SiteLinks;
  now: () => number;
  log: (message: string, error?: unknown) => void;
}
