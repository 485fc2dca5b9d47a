import type { Config } from './config.ts';

// The one origin every absolute URL the server writes starts with: links in mail, Telegram and
// SMS messages, webhooks, QR codes. It never comes from a request (a forged Host header would
// otherwise put an attacker's host in a password-reset mail): PUBLIC_ORIGIN when set, else
// http://HOST:PORT from the configuration.

export interface SiteOrigin {
  /** `https://coinfair.example` (no trailing slash). */
  readonly origin: string;
  /** `/reset-password?token=…` → `https://coinfair.example/reset-password?token=…`. */
  url(pathAndQuery: string): string;
  /** True when PUBLIC_ORIGIN names the origin (the Host header may then be checked against it). */
  readonly fromPublicOrigin: boolean;
  /** PORT=0 binds a free port: the origin is known only once the server listens. */
  listeningOn(port: number): void;
}

type OriginConfig = Partial<Pick<Config, 'PUBLIC_ORIGIN' | 'HOST' | 'PORT'>>;

/** A wildcard listen address is no place to send a browser to; the machine itself is. */
function linkHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') return 'localhost';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

export function createSiteOrigin(config: OriginConfig): SiteOrigin {
  const configured = config.PUBLIC_ORIGIN ? new URL(config.PUBLIC_ORIGIN).origin : undefined;
  const host = linkHost(config.HOST ?? '127.0.0.1');
  let origin = configured ?? `http://${host}:${config.PORT ?? 4321}`;
  return {
    get origin() {
      return origin;
    },
    fromPublicOrigin: configured !== undefined,
    url(pathAndQuery) {
      return `${origin}${pathAndQuery.startsWith('/') ? '' : '/'}${pathAndQuery}`;
    },
    listeningOn(port) {
      if (!configured) origin = `http://${host}:${port}`;
    },
  };
}
