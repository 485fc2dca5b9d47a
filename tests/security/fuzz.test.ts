import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClassifiedRoute, loadRouteTable } from './route-table.ts';
import { buildFixtures, type Fixtures } from './support-fixtures.ts';
import { type SampleRequest, sampleFor, sendSample } from './support-requests.ts';

// The fuzzer (issue 16), generated from the route table: every route that changes state gets
// arbitrary JSON, its own fields with wrong types (huge, negative and NaN-like numbers as numbers
// and as text, long and odd Unicode text, nesting), 10 000-deep nesting, broken JSON and
// prototype keys; routes with path values get hostile path values; GET routes with a query get
// hostile queries. Whatever comes in, the answer is below 500 (a 413 is a fine refusal), an
// error is the JSON envelope, and nothing of the inside shows: no stack frame, source path, SQL
// or module path. Requests go as the owner A (a moderator for moderators' routes), each with a
// fresh session, so bodies reach the services behind the ownership checks. Seeded and bounded:
// the run takes seconds (the report at the end says how many).

const SEED = 16;
const RUNS = 30;

const { routes } = await loadRouteTable();

let fx: Fixtures;
beforeAll(async () => {
  fx = await buildFixtures();
}, 60_000);
afterAll(() => fx?.t.close());

let requests = 0;
const startedAt = performance.now();
afterAll(() => {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.info(`fuzz: ${requests} requests to ${fuzzed.length} routes in ${seconds} s (seed ${SEED}, ${RUNS} runs)`);
});

/** What must never reach a client: stack frames, our source, SQL errors, installed modules. */
const INTERNALS: [string, RegExp][] = [
  ['a stack frame', /\bat (?:async )?[\w$.<>[\]]+ \(|\bat (?:file|node):|\n\s+at /],
  ['a source file', /\.(?:ts|js|mjs):\d+/],
  ['an SQL error', /SQLITE|SqliteError|no such (?:table|column)|syntax error near/i],
  ['a module path', /node_modules/],
  ['a server path', new RegExp(process.cwd().replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))],
  ['a JavaScript error', /\b(?:TypeError|ReferenceError|RangeError|SyntaxError)\b|Maximum call stack/],
];

async function expectSafeAnswer(res: Response, what: string) {
  requests++;
  const body = await res.text();
  const context = `${what} → ${res.status} ${body.slice(0, 400)}`;
  if (res.status >= 500) {
    const logged = fx.unexpected.at(-1);
    const detail = logged instanceof Error ? (logged.stack ?? logged.message) : String(logged);
    expect.fail(`${context}\nlogged: ${detail}`);
  }
  for (const [name, pattern] of INTERNALS) expect(pattern.test(body), `${context}: shows ${name}`).toBe(false);
  const type = res.headers.get('content-type') ?? '';
  if (res.status >= 400) {
    expect(type, context).toMatch(/^application\/json/);
    const parsed = JSON.parse(body) as { errors?: { code?: unknown; message?: unknown }[] };
    expect(parsed.errors?.[0]?.code, context).toEqual(expect.any(String));
    expect(parsed.errors?.[0]?.message, context).toEqual(expect.any(String));
  }
}

// Values of the wrong type for a field: numbers at the edges, numbers as text, odd text, nesting.
const edgeNumber = fc.oneof(
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -Number.MAX_SAFE_INTEGER, -1, -0, 0.30000000000000004),
  fc.constantFrom(5e-324, 2 ** 31, -(2 ** 63), 1e21),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const numericText = fc.constantFrom(
  'NaN',
  'Infinity',
  '-Infinity',
  '-1',
  '-0',
  '1e309',
  '1e-400',
  '9'.repeat(400),
  '0x10',
  '1_000',
  ' 12 ',
  '١٢٣',
  '00000000000000000001',
  '+5',
  '',
  '0.000000001',
  '-0.00000001',
);
const oddText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.constantFrom(
    "' OR 1=1 --",
    '"; DROP TABLE users; --',
    '<script>alert(1)</script>',
    '../../../../etc/passwd',
    '\u0000\u0001\u001f',
    '\u202e\u200b\ufeff',
    '\ud800',
    'usr_AAAAAAAAAAAAAAAA',
    '%s%n%x',
    // A template injection probe, as text.
    ['$', '{7*7}'].join(''),
  ),
);
const LONG_TEXT = ['x'.repeat(70_000), 'é'.repeat(20_000), '😀'.repeat(5_000)];
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  edgeNumber,
  numericText,
  oddText,
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(...LONG_TEXT),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

const DEPTH = 10_000;
/** Bodies no generator needs to find: deep nesting, broken JSON, prototype keys. */
const HOSTILE_TEXTS: [string, string][] = [
  ['arrays 10 000 deep', `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`],
  ['objects 10 000 deep', `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`],
  ['prototype keys', '{"__proto__":{"role":"admin","isAdmin":true},"constructor":{"prototype":{"role":"admin"}}}'],
  ['broken JSON', '{"a":'],
  ['two documents', '{"a":1}{"b":2}'],
  ['a bare string', '"hello"'],
  ['nothing', ''],
  ['a NUL byte', '\u0000'],
  ['a huge number', `{"n":1${'0'.repeat(5000)}}`],
];

const HOSTILE_PATH_VALUES = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }),
  fc.constantFrom(
    '..',
    '../../etc/passwd',
    '%00',
    'a'.repeat(5000),
    "' OR '1'='1",
    'usr_AAAAAAAAAAAAAAAA',
    'doc_AAAAAAAAAAAAAAAA',
    'att_AAAAAAAAAAAAAAAA',
    '-1',
    '0',
    '1e309',
    'NaN',
    '😀',
  ),
);

/** Path values and queries sent as they are, not encoded: malformed percent escapes and the like. */
const RAW_PATH_VALUES = ['%', '%ZZ', '%C0%AF', '%FF%FE', '%ED%A0%80', '%00', '..%2F..%2Fetc%2Fpasswd', '%252e%252e'];
const RAW_QUERIES = ['%', 'page=%', '%FF=1', 'page=%C0%AF', 'a[b]=1&a[c]=2', 'page&page=&page=1', '=&=&='];

/** Headers a client controls besides the body: cookies, language, content type. */
const HOSTILE_HEADERS: [string, Record<string, string>][] = [
  ['a malformed locale cookie', { cookie: 'locale=%E0%A4%A; cookie-settings=%' }],
  ['an odd Accept-Language', { 'accept-language': `${'x-'.repeat(2000)};q=NaN, *;q=-1, ÿ` }],
  ['a locale query and header at once', { 'accept-language': 'he-IL' }],
  ['JSON declared as UTF-16', { 'content-type': 'application/json; charset=utf-16' }],
  ['a content type with no type', { 'content-type': ';;;' }],
  ['a multipart type with no boundary', { 'content-type': 'multipart/form-data' }],
];

/** Who sends: a moderator for moderators' routes, else the owner of everything, A. */
const senderOf = (route: ClassifiedRoute) => (route.audience === 'staff' ? 'moderator' : 'A');
const sessionFor = async (route: ClassifiedRoute) => (await fx.people[senderOf(route)].newSession()).headers;

/** Sends `text` as a JSON body, exactly. */
async function sendText(route: ClassifiedRoute, sample: SampleRequest, text: string) {
  const init = { method: route.method, headers: { ...(await sessionFor(route)), 'content-type': 'application/json' } };
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(sample.params?.[name] ?? 'x'));
  return fx.send(path, { ...init, body: text });
}

const sendJson = async (route: ClassifiedRoute, sample: SampleRequest, json: unknown) =>
  sendSample(
    fx,
    route,
    { ...sample, multipart: undefined, urlencoded: undefined, json },
    { headers: await sessionFor(route) },
  );

/** The sample's field names with values of any type: half kept, half replaced. */
function fieldsWithWrongTypes(sample: SampleRequest): fc.Arbitrary<Record<string, unknown>> {
  const fields = sample.json && typeof sample.json === 'object' && !Array.isArray(sample.json) ? sample.json : {};
  const names = Object.keys(fields);
  if (names.length === 0) return fc.dictionary(fc.string({ maxLength: 12 }), wrongValue, { maxKeys: 5 });
  return fc.record(
    Object.fromEntries(
      names.map((name) => [name, fc.oneof(fc.constant((fields as Record<string, unknown>)[name]), wrongValue)]),
    ),
    { requiredKeys: [] },
  );
}

const hasBody = (route: ClassifiedRoute) => route.method !== 'GET';
/** Every route: GETs for their path values and queries (any GET may be sent any query). */
const fuzzed = routes;

const options = (key: string) => ({
  seed: SEED + [...key].reduce((sum, c) => sum + c.charCodeAt(0), 0),
  numRuns: RUNS,
});

it('fuzzes every route of the table', () => {
  expect(fuzzed.length).toBeGreaterThan(60);
});

describe.each(fuzzed.map((route) => [route.key, route] as const))('%s', (_, route) => {
  if (hasBody(route)) {
    it('takes arbitrary JSON', async () => {
      const sample = await sampleFor(route.key, fx);
      await fc.assert(
        fc.asyncProperty(fc.jsonValue(), async (json) => {
          await expectSafeAnswer(await sendJson(route, sample, json), `${route.key} ${JSON.stringify(json)}`);
        }),
        options(route.key),
      );
    });

    it('takes its own fields with wrong types, edge numbers and odd text', async () => {
      const sample = await sampleFor(route.key, fx);
      await fc.assert(
        fc.asyncProperty(fieldsWithWrongTypes(sample), async (json) => {
          const shown = JSON.stringify(json).slice(0, 300);
          await expectSafeAnswer(await sendJson(route, sample, json), `${route.key} ${shown}`);
        }),
        options(route.key),
      );
    });

    it.each(HOSTILE_TEXTS)('takes %s', async (_, text) => {
      const sample = await sampleFor(route.key, fx);
      await expectSafeAnswer(await sendText(route, sample, text), `${route.key} ${text.slice(0, 40)}`);
    });
  }

  if (route.params.length > 0) {
    it('takes hostile path values', async () => {
      const sample = await sampleFor(route.key, fx);
      const values = fc.record(Object.fromEntries(route.params.map((p) => [p, HOSTILE_PATH_VALUES])));
      await fc.assert(
        fc.asyncProperty(values, async (params) => {
          const res = await sendSample(fx, route, sample, { headers: await sessionFor(route), params });
          await expectSafeAnswer(res, `${route.key} ${JSON.stringify(params).slice(0, 200)}`);
        }),
        options(route.key),
      );
    });
  }

  if (route.params.length > 0) {
    it.each(RAW_PATH_VALUES)('takes the raw path value %s', async (raw) => {
      const sample = await sampleFor(route.key, fx);
      const init = { method: route.method, headers: await sessionFor(route) };
      const res = await fx.send(route.path.replace(/:\w+/g, raw), init);
      await expectSafeAnswer(res, `${route.key} ${raw}`);
      expect(sample.as).toBeDefined();
    });
  }

  it.each(RAW_QUERIES)('takes the raw query %s', async (raw) => {
    const sample = await sampleFor(route.key, fx);
    const path = route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(sample.params?.[name] ?? 'x'));
    const res = await fx.send(`${path}?${raw}`, { method: route.method, headers: await sessionFor(route) });
    await expectSafeAnswer(res, `${route.key} ?${raw}`);
  });

  it.each(HOSTILE_HEADERS)('takes %s', async (_, extra) => {
    const sample = await sampleFor(route.key, fx);
    const session = await sessionFor(route);
    const headers = { ...session, ...extra, cookie: [session.cookie, extra.cookie].filter(Boolean).join('; ') };
    const path = route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(sample.params?.[name] ?? 'x'));
    const body = hasBody(route) ? JSON.stringify(sample.json ?? {}) : undefined;
    const res = await fx.send(`${path}?locale=${encodeURIComponent('zz-%')}`, { method: route.method, headers, body });
    await expectSafeAnswer(res, `${route.key} ${JSON.stringify(extra).slice(0, 80)}`);
  });

  if (route.method === 'GET') {
    it('takes hostile queries, repeated keys included', async () => {
      const sample = await sampleFor(route.key, fx);
      const names = [...Object.keys(sample.query ?? {}), 'page', 'locale', 'camelCase'];
      const entries = fc.array(
        fc.tuple(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 10 })), fc.oneof(numericText, oddText)),
        { maxLength: 6 },
      );
      await fc.assert(
        fc.asyncProperty(entries, async (pairs) => {
          const query = new URLSearchParams(pairs).toString();
          const path = route.path.replace(/:(\w+)/g, (_, name: string) =>
            encodeURIComponent(sample.params?.[name] ?? 'x'),
          );
          const res = await fx.send(`${path}?${query}`, { headers: await sessionFor(route) });
          await expectSafeAnswer(res, `${route.key} ?${query.slice(0, 200)}`);
        }),
        options(route.key),
      );
    });
  }

  // Routes that read JSON get multipart too: the wrong type of body must be refused as cleanly.
  if (hasBody(route)) {
    it('takes arbitrary multipart fields and file bytes', async () => {
      const sample = await sampleFor(route.key, fx);
      const parts = fc.array(
        fc.tuple(
          fc.constantFrom('file', 'files', 'kind', 'is_for_moderator', 'user', 'x'),
          fc.oneof(oddText, fc.uint8Array({ maxLength: 2048 })),
        ),
        { maxLength: 4 },
      );
      await fc.assert(
        fc.asyncProperty(parts, async (entries) => {
          const multipart = () => {
            const body = new FormData();
            for (const [name, value] of entries) {
              body.append(name, typeof value === 'string' ? value : new File([new Uint8Array(value)], 'x.jpg'));
            }
            return body;
          };
          const res = await sendSample(fx, route, { ...sample, multipart }, { headers: await sessionFor(route) });
          await expectSafeAnswer(res, `${route.key} multipart ${entries.map(([n]) => n).join(',')}`);
        }),
        options(route.key),
      );
    });
  }
});
