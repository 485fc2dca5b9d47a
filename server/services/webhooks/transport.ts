import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedTarget } from './address-guard.ts';

// One POST to a webhook URL (issue 21): to the address the guard vetted (pinned, whatever DNS says
// meanwhile), JSON body, no redirects followed (a 3xx is a failure: following one would reach an
// address nobody vetted), a few seconds at most, and at most 16 KB of the answer read.

export const WEBHOOK_TIMEOUT_MS = 5_000;
const MAX_ANSWER_BYTES = 16 * 1024;

export interface PostResult {
  /** Null when nothing answered (refused, reset, timed out). */
  status: number | null;
  headers: http.IncomingHttpHeaders;
  /** The answer's first 16 KB, as text. */
  body: string;
  latencyMs: number;
  /** `timeout` or `unreachable` when there was no answer. */
  failure: 'timeout' | 'unreachable' | null;
  error: string | null;
}

export type WebhookPost = (
  target: ResolvedTarget,
  body: string,
  headers: Record<string, string>,
  timeoutMs?: number,
) => Promise<PostResult>;

/** A lookup that answers the vetted address, in the form the caller asked for. */
const pinnedLookup =
  (address: string, family: 4 | 6): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };

export const postWebhook: WebhookPost = (target, body, headers, timeoutMs = WEBHOOK_TIMEOUT_MS) => {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const { url } = target;
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, latencyMs: elapsed() });
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: pinnedLookup(target.address, target.family),
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'Coinfair-Webhooks/1.0',
          ...headers,
        },
        // No connection is kept: the next delivery resolves and vets the host again.
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          finish({
            status: response.statusCode ?? null,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            failure: null,
            error: null,
          });
        response.on('data', (chunk: Buffer) => {
          if (size >= MAX_ANSWER_BYTES) return;
          chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - size));
          size += chunk.length;
          // Enough read: what follows is not needed, and a receiver that streams forever must not hold us.
          if (size >= MAX_ANSWER_BYTES) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, headers: {}, body: '', failure: 'timeout', error: `no answer within ${timeoutMs} ms` });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({ status: null, headers: {}, body: '', failure: 'unreachable', error: error.code ?? error.message }),
    );
    request.end(body);
  });
};
