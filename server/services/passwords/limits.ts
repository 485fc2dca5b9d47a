// How long a reset link lives and how many a person or an address may ask for.

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
/** The window of both request limits below. */
export const RESET_WINDOW_MS = 60 * 60 * 1000;
/** Reset mails per account per window; more requests are answered alike and send nothing. */
export const MAX_RESET_MAILS_PER_ACCOUNT = 3;
/** Forgot-password requests per client address per window, known addresses or not (429). */
export const MAX_RESET_REQUESTS_PER_IP = 20;
/** Reset rows are kept a day (support questions), then pruned as new requests come. */
export const RESET_RETENTION_MS = 24 * 60 * 60 * 1000;

export const RESET_REDIRECT = '/login?reset=1';
