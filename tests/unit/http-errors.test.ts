import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ContendedError } from '../../db/postgres.ts';
import { unexpectedErrorResponse } from '../../server/http/errors.ts';

// What a request answers when something other than an AppError escapes a handler.

function appThrowing(error: unknown) {
  const logged: unknown[] = [];
  const app = new Hono();
  app.get('/', () => {
    throw error;
  });
  app.onError((e, c) => unexpectedErrorResponse(c, e, (x) => logged.push(x)));
  return { app, logged };
}

describe('unexpected errors', () => {
  it('answers 503 BUSY with Retry-After when PostgreSQL gave up retrying a transaction, unlogged', async () => {
    const { app, logged } = appThrowing(new ContendedError(Object.assign(new Error('40001'), { code: '40001' })));
    const res = await app.request('/');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect((await res.json()).errors[0].code).toBe('BUSY');
    expect(logged).toEqual([]);
  });

  it('answers 500 without internals for anything else, and logs it', async () => {
    const { app, logged } = appThrowing(new Error('secret detail'));
    const res = await app.request('/');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).toContain('INTERNAL_ERROR');
    expect(text).not.toContain('secret detail');
    expect(logged).toHaveLength(1);
  });
});
