import { createHash, createHmac, randomBytes } from 'node:crypto';
import { canonicalRequest } from '../../src/lib/shared/api-keys.ts';
import { TEST_ORIGIN, type TestApp } from './test-app.ts';

// A bot's client, as docs/api.md tells one to write it: every request signed with the key's secret
// (HMAC-SHA256 over method, path and query, timestamp, nonce and the body's SHA-256), no cookies,
// no CSRF token.

export interface KeyClientOptions {
  /** Unix seconds the client believes it is; the test clock's by default. */
  timestamp?: () => number;
  nonce?: () => string;
}

export function apiKeyClient(t: TestApp, keyId: string, secret: string, options: KeyClientOptions = {}) {
  const timestamp = options.timestamp ?? (() => Math.floor(t.clock.now / 1000));
  const nonce = options.nonce ?? (() => randomBytes(16).toString('hex'));
  /** The headers of one signed request (a test may alter them). */
  const sign = (method: string, pathAndQuery: string, body = '') => {
    const ts = String(timestamp());
    const n = nonce();
    const digest = createHash('sha256').update(body).digest('hex');
    const signature = createHmac('sha256', secret)
      .update(canonicalRequest(method, pathAndQuery, ts, n, digest))
      .digest('hex');
    return { 'x-api-key': keyId, 'x-api-timestamp': ts, 'x-api-nonce': n, 'x-api-signature': signature };
  };
  const request = (method: string, pathAndQuery: string, json?: unknown, extra: Record<string, string> = {}) => {
    const body = json === undefined ? '' : JSON.stringify(json);
    const headers: Record<string, string> = { ...sign(method, pathAndQuery, body), ...extra };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const env = { incoming: { socket: { remoteAddress: '198.51.100.77' } } };
    return t.app.request(
      `${TEST_ORIGIN}${pathAndQuery}`,
      { method, headers, ...(json !== undefined ? { body } : {}) },
      env,
    );
  };
  return {
    sign,
    request,
    get: (path: string) => request('GET', path),
    post: (path: string, json: unknown = {}) => request('POST', path, json),
  };
}
