import { OFFLINE_AFTER_SECONDS } from '../../../src/lib/shared/presence.ts';

/** Owners not seen for this long are offline: their offers leave the listing and cannot be started. */
export const OFFLINE_AFTER_MS = OFFLINE_AFTER_SECONDS * 1000;
