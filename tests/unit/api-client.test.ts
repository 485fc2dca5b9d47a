import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  apiGet,
  apiRequest,
  NETWORK_ERROR_CODE,
  REQUEST_TIMEOUT_MS,
  TIMEOUT_ERROR_CODE,
  UPLOAD_TIMEOUT_MS,
  withTimeout,
} from '../../src/lib/api-client.ts';

// The islands' API client and spec section 8's transport rule "A timeout is a timeout error":
// a call with no answer within its time-out (decision 129) is aborted and answers TIMEOUT_ERROR,
// told apart from a lost connection and from the caller's own abort.

/** A fetch that answers after `ms`, or never, and stops when its signal aborts, as browsers do. */
function slowFetch(ms = Number.POSITIVE_INFINITY) {
  return vi.fn(
    (_path: string, init: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        const abort = () => reject(new DOMException('aborted', 'AbortError'));
        if (init.signal?.aborted) abort();
        init.signal?.addEventListener('abort', abort);
        if (Number.isFinite(ms)) setTimeout(() => resolve(Response.json({ data: 'late' })), ms);
      }),
  );
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('apiRequest time-outs', () => {
  it('aborts a call with no answer after the time-out and answers a timeout error', async () => {
    vi.useFakeTimers();
    const fetch = slowFetch();
    vi.stubGlobal('fetch', fetch);
    const pending = apiGet('/rest/v1/slow');
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(fetch.mock.calls[0]?.[1]?.signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await pending;
    expect(result).toMatchObject({ ok: false, status: 0, errors: [{ code: TIMEOUT_ERROR_CODE }] });
  });

  it('lets an answer within the time-out through', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', slowFetch(REQUEST_TIMEOUT_MS - 10));
    const pending = apiGet<string>('/rest/v1/slow');
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect(await pending).toMatchObject({ ok: true, data: 'late' });
  });

  it('gives uploads the longer load time-out', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', slowFetch());
    vi.stubGlobal('document', { cookie: 'XSRF-TOKEN=t', getElementById: () => null });
    const pending = apiRequest('POST', '/rest/v1/upload', new FormData());
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(UPLOAD_TIMEOUT_MS - REQUEST_TIMEOUT_MS);
    expect((await pending).errors[0]?.code).toBe(TIMEOUT_ERROR_CODE);
  });

  it('tells the timeout in the page language from #transport-errors', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', slowFetch());
    vi.stubGlobal('document', {
      cookie: '',
      getElementById: (id: string) => (id === 'transport-errors' ? { dataset: { timeout: 'Zu langsam.' } } : null),
    });
    const pending = apiGet('/rest/v1/slow');
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect((await pending).errors).toEqual([{ code: TIMEOUT_ERROR_CODE, message: 'Zu langsam.' }]);
  });

  it("keeps a lost connection and the caller's own abort network errors", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    expect((await apiGet('/rest/v1/x')).errors[0]?.code).toBe(NETWORK_ERROR_CODE);
    vi.stubGlobal('fetch', slowFetch());
    const controller = new AbortController();
    const pending = apiGet('/rest/v1/x', { signal: controller.signal });
    controller.abort();
    expect((await pending).errors[0]?.code).toBe(NETWORK_ERROR_CODE);
  });
});

describe('withTimeout', () => {
  it("follows the caller's signal and clears its timer", () => {
    vi.useFakeTimers();
    const caller = new AbortController();
    const deadline = withTimeout(caller.signal, 1000);
    caller.abort();
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut()).toBe(false);
    const other = withTimeout(undefined, 1000);
    other.clear();
    vi.advanceTimersByTime(2000);
    expect(other.signal.aborted).toBe(false);
  });
});
