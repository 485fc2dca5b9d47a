import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLog } from '../../server/observability/log.ts';
import { type FinishedRequest, noteRequest, observeRequests } from '../../server/observability/request-log.ts';

// The structured log (issue 25): one line per request with its id, echoed in X-Request-Id and
// carried by every line the request causes; a proxy's id only when the proxy is trusted; secrets
// never written, however deep in a logged object.

const lines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
    done();
  },
});
const log = createLog({ level: 'info', format: 'json', destination: sink });
const finished: FinishedRequest[] = [];

function serve(trustProxy: boolean): Promise<{ server: Server; url: string }> {
  const server = createServer(
    observeRequests({ log, trustProxy, onFinished: (request) => finished.push(request) }, (req, res) => {
      // A service deep inside the request logs: the line carries the request's id.
      log.info({ step: 'handler' }, 'working');
      noteRequest(req, { route: '/rest/v1/trade/:hash', user: 'usr_abc' });
      res.end('ok');
    }),
  );
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

let direct: { server: Server; url: string };
let proxied: { server: Server; url: string };
beforeAll(async () => {
  direct = await serve(false);
  proxied = await serve(true);
});
afterAll(() => {
  direct.server.close();
  proxied.server.close();
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the request log', () => {
  it('writes one line per request with its id, route pattern, status, time and person', async () => {
    lines.length = 0;
    const res = await fetch(`${direct.url}/rest/v1/trade/T1x`);
    await settle();
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    const request = lines.find((line) => line.msg === 'request');
    expect(request).toMatchObject({
      requestId: id,
      method: 'GET',
      route: '/rest/v1/trade/:hash',
      status: 200,
      user: 'usr_abc',
    });
    expect(typeof request?.ms).toBe('number');
    // The path's own id is never in the line: only the pattern.
    expect(JSON.stringify(lines)).not.toContain('T1x');
    expect(lines.find((line) => line.msg === 'working')).toMatchObject({ requestId: id, step: 'handler' });
    expect(finished.at(-1)).toMatchObject({ method: 'GET', route: '/rest/v1/trade/:hash', status: 200 });
  });

  it("keeps a trusted proxy's X-Request-Id, and makes its own for an untrusted one or a malformed id", async () => {
    const kept = await fetch(`${proxied.url}/`, { headers: { 'x-request-id': 'nginx-7f3a9c' } });
    expect(kept.headers.get('x-request-id')).toBe('nginx-7f3a9c');
    const ignored = await fetch(`${direct.url}/`, { headers: { 'x-request-id': 'nginx-7f3a9c' } });
    expect(ignored.headers.get('x-request-id')).not.toBe('nginx-7f3a9c');
    const forged = await fetch(`${proxied.url}/`, { headers: { 'x-request-id': 'a"}\t{"level":60' } });
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
  });
});

describe('redaction', () => {
  it('never writes passwords, codes, tokens, gift codes, IBANs or cookies, at any of three levels', async () => {
    lines.length = 0;
    log.info(
      {
        password: 'hunter2-top',
        body: { newPassword: 'hunter3-nested', code: '123456', iban: 'DE89370400440532013000', amount: '0.01' },
        req: {
          headers: { cookie: 'session=s3cr3t-cookie', authorization: 'Bearer tok-abc', host: 'coinfair.example' },
        },
        card: { giftCode: 'GIFT-XXXX-YYYY-ZZZZ' },
        token: 'reset-token-123',
      },
      'something happened',
    );
    log.error({ err: Object.assign(new Error('bad'), { secret: 'whsec_abcdef' }) }, 'failed');
    await settle();
    const written = JSON.stringify(lines);
    for (const secret of [
      'hunter2-top',
      'hunter3-nested',
      '123456',
      'DE89370400440532013000',
      's3cr3t-cookie',
      'tok-abc',
      'GIFT-XXXX-YYYY-ZZZZ',
      'reset-token-123',
      'whsec_abcdef',
    ]) {
      expect(written, secret).not.toContain(secret);
    }
    // What is not secret stays readable.
    expect(written).toContain('coinfair.example');
    expect(written).toContain('0.01');
    expect(written).toContain('[redacted]');
    // A redacted error is still written as an error: its type, message and stack.
    expect(lines.find((line) => line.msg === 'failed')?.err).toMatchObject({ type: 'Error', message: 'bad' });
  });
});
