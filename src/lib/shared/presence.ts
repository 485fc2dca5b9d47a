// When a person counts as online, recently active or offline (spec section 3: lastSeen with a
// level). The offers listing and the start gate use the same rule (docs/decisions/047-presence-and-listing-filters.md).

/** Seen within this many seconds: online now (a green dot). */
export const ONLINE_SECONDS = 10 * 60;
/**
 * Seen longer ago than this: listed after the recently active, below the `offers.last_seen_trades`
 * message row (spec section 4, "Lists").
 */
export const LAST_SEEN_BREAKPOINT_SECONDS = 2 * 3600;
/** Not seen for this long: offline; their offers leave the listing and cannot be started. */
export const OFFLINE_AFTER_SECONDS = 3 * 86_400;

export type PresenceLevel = 'online' | 'recent' | 'away' | 'offline';

export function presenceLevel(secondsSinceSeen: number): PresenceLevel {
  if (secondsSinceSeen < ONLINE_SECONDS) return 'online';
  if (secondsSinceSeen <= LAST_SEEN_BREAKPOINT_SECONDS) return 'recent';
  if (secondsSinceSeen < OFFLINE_AFTER_SECONDS) return 'away';
  return 'offline';
}
