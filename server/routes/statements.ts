import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, personContextOf, signedIn } from '../http/auth.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// Signed account statements (issue 24; docs/decisions/147-signed-statements.md, docs/trust.md):
//   GET /rest/v1/statements                    the months the monthly job closed, newest first
//   GET /rest/v1/statements/current            balances now, signed
//   GET /rest/v1/statements/month?period=YYYY-MM  an ended month: opening, movements, closing, signed
//   GET /.well-known/coinfair-statement-key    the public key statements are checked with (anyone)
// A statement answers { statement, signature, keyId, publicKey, algorithm, canonicalization };
// scripts/verify-statement.ts checks a saved one offline.

export const STATEMENT_KEY_PATH = '/.well-known/coinfair-statement-key';

const MonthQuery = v.object({
  period: v.pipe(
    v.string('must be a month as YYYY-MM'),
    v.trim(),
    v.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month as YYYY-MM'),
  ),
});

export function statementRoutes(services: Services) {
  const { statements } = services;
  return (
    new Hono<AppEnv>()
      .use('/rest/v1/statements', signedIn)
      .use('/rest/v1/statements/*', signedIn)
      .get('/rest/v1/statements', async (c) => c.json({ data: await statements.months(personContextOf(c)) }))
      .get('/rest/v1/statements/current', async (c) => c.json({ data: await statements.current(personContextOf(c)) }))
      .get('/rest/v1/statements/month', validate('query', MonthQuery), async (c) =>
        c.json({ data: await statements.monthly(personContextOf(c), { period: c.req.valid('query').period }) }),
      )
      // Public and the same for everyone: caches may keep it an hour, and pages elsewhere may read it.
      .get(STATEMENT_KEY_PATH, async (c) => {
        c.header('Cache-Control', 'public, max-age=3600');
        c.header('Access-Control-Allow-Origin', '*');
        return c.json(await statements.publishedKeys());
      })
  );
}
