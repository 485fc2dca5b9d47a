import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { AppError, invalidInput } from '../errors.ts';

// What a webhook URL may point at (issue 21, docs/security.md "Outgoing requests"): http(s) only,
// no credentials in it, and after DNS only public unicast addresses, so a merchant cannot make the
// server call its own network (SSRF). The address that passed is the one the request connects to
// (transport.ts pins it), so a second, different DNS answer cannot slip in between (rebinding).
// `WEBHOOKS_ALLOW_LOCAL=on` lifts the address rule for tests and development.

export const MAX_URL_LENGTH = 2000;

/** The host's address the request will connect to. */
export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export type Resolve = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolve: Resolve = (hostname) => lookup(hostname, { all: true, verbatim: true });

const urlProblem = (field: string, message: string, key: string) => invalidInput([{ field, message, key }]);

/** The URL as typed, if its shape may be a webhook's; ERROR_INPUT_VALIDATION naming the rule otherwise. */
export function webhookUrl(value: string, field = 'url'): URL {
  if (value.length > MAX_URL_LENGTH || !URL.canParse(value))
    throw urlProblem(field, 'Enter a full address such as https://example.com/webhooks.', 'webhook_url_invalid');
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw urlProblem(field, 'Only http:// and https:// addresses can receive webhooks.', 'webhook_url_scheme');
  if (url.username || url.password)
    throw urlProblem(field, 'Leave the user name and password out of the address.', 'webhook_url_credentials');
  return url;
}

/** Whether the address is one anybody on the internet could reach (not private, loopback, link-local…). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is judged as the IPv4 address it carries.
  return ipaddr.process(address).range() === 'unicast';
}

export interface AddressGuard {
  /** Resolves the URL's host and answers the address to connect to, or refuses it. */
  resolve(url: URL, field?: string): Promise<ResolvedTarget>;
}

export function createAddressGuard(options: { allowLocal: boolean; resolve?: Resolve }): AddressGuard {
  const resolveHost = options.resolve ?? systemResolve;
  return {
    async resolve(url, field = 'url') {
      // `new URL` keeps IPv6 literals in brackets.
      const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
      let answers: { address: string; family: number }[];
      if (ipaddr.isValid(hostname)) answers = [{ address: hostname, family: hostname.includes(':') ? 6 : 4 }];
      else {
        try {
          answers = await resolveHost(hostname);
        } catch {
          answers = [];
        }
      }
      if (answers.length === 0)
        throw new AppError('WEBHOOK_VERIFICATION_FAILED', `${url.hostname} does not resolve to an address.`, {
          field,
          key: 'webhook_dns',
          params: { host: url.hostname },
          meta: { reason: 'dns' },
        });
      // Every answer must be public: a name with one private address among public ones is refused.
      if (!options.allowLocal && !answers.every((answer) => isPublicAddress(answer.address)))
        throw urlProblem(
          field,
          'This address leads to a private, local or reserved network; use one reachable from the internet.',
          'webhook_url_private',
        );
      const first = answers[0] as { address: string; family: number };
      return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
    },
  };
}
