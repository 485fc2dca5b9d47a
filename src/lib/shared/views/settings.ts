// The settings API's answer shapes: the contract between server/services/settings and
// server/services/two-factor, which build them, and the settings page's island
// (src/components/settings/).

/** The preferences a person writes with POST /rest/v1/users/settings. */
export interface ProfileValues {
  bio: string;
  notifyTradeMessagesInterval: number;
  soundNotifications: boolean;
  notifySmsBitcoinsConfirmed: boolean;
  notifySmsIncomingTrade: boolean;
  emailSubscribed: boolean;
}

/** GET /rest/v1/users/settings. */
export interface ProfileSettings extends ProfileValues {
  /** No security questions exist here; the spec's flag stays false rather than absent. */
  securityQuestionsAnswered: boolean;
  telegramSubscribed: boolean;
  usernameChanged: boolean;
  /** The person's country (countries table id; issue 19): set at registration, changed here. */
  countryId: number | null;
}

/**
 * Spec section 3, "Two-factor states": `initial` never set up, `verification` a secret issued and
 * waiting for its first code, `enabled` on, `disabled` turned off after being on.
 */
export type TwoFactorState = 'initial' | 'verification' | 'enabled' | 'disabled';

/** What the second factor protects. */
export interface TwoFactorPurposes {
  login: boolean;
  sendout: boolean;
  release: boolean;
}

/** GET /rest/v1/users/2fa. */
export interface TwoFactorStatus extends TwoFactorPurposes {
  state: TwoFactorState;
  /** Unused recovery codes; 0 when off. */
  recoveryCodesLeft: number;
}
