import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

// What makes a device "the same" for review: the browser's user agent and the network it comes
// from. A network, not an address: home routers and mobile carriers hand out a new address in
// the same /24 (IPv4) or /48 (IPv6, a site's prefix) all the time, and a mail per renewal would
// teach people to ignore the mail.

/** The same cut the session row gets (sessions.ts), so session rows and devices compare equal. */
export const USER_AGENT_MAX_LENGTH = 512;

/** `203.0.113.7` → `203.0.113.0/24`, `2001:db8:1:2::1` → `2001:db8:1::/48`; anything else as is. */
export function networkOf(ip: string): string {
  const address = ip.trim().toLowerCase().replace(/%.*$/, '');
  // An IPv4 client on a dual-stack socket shows up as ::ffff:a.b.c.d.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  const v4 = mapped ?? address;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (isIPv6(address)) {
    const [head = '', tail] = address.split('::');
    const left = head ? head.split(':') : [];
    const right = tail ? tail.split(':') : [];
    // Only the first three groups matter, and `::` can hide them: fill the gap with zeros.
    const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
    return `${groups
      .slice(0, 3)
      .map((g) => Number.parseInt(g, 16).toString(16))
      .join(':')}::/48`;
  }
  return address;
}

export function deviceFingerprint(userAgent: string, ip: string): string {
  return createHash('sha256')
    .update(`${userAgent.slice(0, USER_AGENT_MAX_LENGTH)}\n${networkOf(ip)}`)
    .digest('hex');
}
