/**
 * The text of the notification bell's badge (spec section 9: "99+" from a count of 100).
 * An empty string means "no badge": nothing unread, or a count that is not a usable number.
 */
export function formatBadgeCount(n: number): string {
  if (!Number.isFinite(n) || n <= 0) return '';
  if (n >= 100) return '99+';
  return String(Math.floor(n));
}
