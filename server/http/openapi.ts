import type { Hono } from 'hono';
import { generateSpecs } from 'hono-openapi';
import type { OpenAPIV3_1 } from 'openapi-types';
import {
  API_KEY_RATE_LIMIT,
  API_KEY_RATE_WINDOW_SECONDS,
  API_KEY_TIMESTAMP_SKEW_SECONDS,
} from '../../src/lib/shared/api-keys.ts';
import type { SiteOrigin } from '../site-origin.ts';
import { isOffLimitsForKeys } from './api-key-auth.ts';
import type { AppEnv } from './app-env.ts';
import { isPublicRoute } from './public-routes.ts';

// The OpenAPI 3.1 document of the API (issue 21): generated from the app's own route table by
// hono-openapi, every input from the valibot schema its route validates with (server/http/
// validate.ts marks them), then completed here with what no schema says: our error envelope, the two
// ways to authenticate, which routes an API key may not reach, and a tag per area. Served at
// GET /rest/v1/openapi.json and read by the reference on /developers. tests/api/openapi.test.ts
// fails when a route is missing.

/** What the document covers: the JSON API and the files it serves; not the browser-only helpers. */
const DOCUMENTED = /^\/(rest\/v1|uploads)\//;

/** Tags by path, first match wins: what a reader of the reference looks for. */
const TAGS: [RegExp, string][] = [
  [/^\/rest\/v1\/(trade|dispute|moderation|uploads\/trades)|^\/uploads\/trades/, 'Trades'],
  [/^\/rest\/v1\/(offers|users\/\{username\}\/offers)/, 'Offers'],
  [/^\/rest\/v1\/(balances|wallet|hedging)/, 'Wallet'],
  [/^\/rest\/v1\/(webhooks|merchants)/, 'Webhooks'],
  [/^\/rest\/v1\/api-keys/, 'API keys'],
  [/^\/rest\/v1\/(gift-cards)|^\/uploads\/gift-cards/, 'Gift cards'],
  [/^\/rest\/v1\/(bankaccounts|banks)/, 'Bank accounts'],
  [/^\/rest\/v1\/(affiliates|users\/\{(username|id)\}\/referrals)/, 'Affiliates'],
  [/^\/rest\/v1\/(feedback|users\/\{username\}\/(feedbacks|profile|trust|past-trades))/, 'Feedback and profiles'],
  [/^\/rest\/v1\/notifications/, 'Notifications'],
  [/^\/rest\/v1\/proof/, 'Proof of liabilities'],
  [/^\/rest\/v1\/verification/, 'Verification'],
  [/^\/rest\/v1\/operators/, 'Operators'],
  [
    /^\/rest\/v1\/(currencies|countries|timezones|payment-methods|calculator|crypto-fiat-rates|vendorlanding)/,
    'Market data',
  ],
  [/^\/rest\/v1\/(auth|castle|users|telegram|cookie-policy|csrf-token)|^\/uploads\/avatars/, 'Account'],
];

const ERROR_SCHEMA: OpenAPIV3_1.SchemaObject = {
  type: 'object',
  required: ['errors'],
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', examples: ['ERROR_INPUT_VALIDATION'] },
          message: { type: 'string', description: "In the reader's language (?locale=, Accept-Language)." },
          field: { type: 'string' },
          details: {
            type: 'array',
            items: {
              type: 'object',
              properties: { field: { type: 'string' }, message: { type: 'string' }, key: { type: 'string' } },
            },
          },
        },
      },
    },
    meta: { type: 'object' },
  },
};

const errorResponse = (description: string): OpenAPIV3_1.ResponseObject => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const SIGNING = `Sign every request with an API key made in settings: headers \`X-Api-Key\` (the key's
\`ck_…\` id), \`X-Api-Timestamp\` (unix seconds, within ${API_KEY_TIMESTAMP_SKEW_SECONDS / 60} minutes),
\`X-Api-Nonce\` (16-64 of A-Z a-z 0-9 _ -, never reused) and \`X-Api-Signature\`: lower-case hex
HMAC-SHA256, under the key's secret, of METHOD, path with query, timestamp, nonce and the body's
SHA-256 (hex), joined by newlines. No cookie, no CSRF token. ${API_KEY_RATE_LIMIT} requests per
${API_KEY_RATE_WINDOW_SECONDS} s per key, announced in RateLimit-* headers.`;

type Operation = OpenAPIV3_1.OperationObject;

/** What the generator cannot know: tags, who may call, our error answers. */
function complete(path: string, method: string, operation: Operation, isPublic: (key: string) => boolean): Operation {
  const tag = TAGS.find(([pattern]) => pattern.test(path))?.[1] ?? 'Other';
  const honoPath = path.replace(/\{(\w+)\}/g, ':$1');
  const keyRoute = !isOffLimitsForKeys(path.replace(/\{\w+\}/g, 'x'));
  const publicRoute = isPublic(`${method.toUpperCase()} ${honoPath}`);
  const responses = { ...operation.responses } as Record<string, OpenAPIV3_1.ResponseObject>;
  for (const [status, response] of Object.entries(responses))
    if (!response || Object.keys(response).length === 0)
      responses[status] = { description: 'The answer: `{ data, meta? }`.' };
  if (!Object.keys(responses).some((status) => status.startsWith('2')))
    responses['200'] = { description: 'The answer: `{ data, meta? }`.' };
  if (responses['400'])
    responses['400'] = errorResponse('Bad input: ERROR_INPUT_VALIDATION, with `details` per field.');
  if (!publicRoute) responses['401'] = errorResponse('Not signed in, or a signature that does not hold.');
  responses['429'] = errorResponse('Too many requests: wait `Retry-After` seconds.');
  responses.default = errorResponse('Any other refusal: the error envelope, with its code.');
  return {
    ...operation,
    tags: [tag],
    responses,
    security: publicRoute ? [] : keyRoute ? [{ session: [] }, { apiKey: [] }] : [{ session: [] }],
    ...(keyRoute ? {} : { description: 'Browser sessions only: API keys cannot call this.' }),
  };
}

export async function openApiDocument(
  app: Hono<AppEnv>,
  options: { serverUrl: string; isPublic: (routeKey: string) => boolean },
): Promise<OpenAPIV3_1.Document> {
  const spec = (await generateSpecs(app, {
    includeEmptyPaths: true,
    exclude: [/^(?!\/(rest\/v1|uploads)\/)/],
    documentation: {
      openapi: '3.1.0',
      info: {
        title: 'Coinfair API',
        version: '1',
        description: `The same JSON API the website uses. Every answer is \`{ data, meta? }\`; every refusal is \`{ errors: [{ code, message, field?, details? }] }\`.\n\n${SIGNING}`,
      },
      servers: [{ url: options.serverUrl }],
    },
  })) as unknown as OpenAPIV3_1.Document;
  const paths: OpenAPIV3_1.PathsObject = {};
  for (const [path, item] of Object.entries(spec.paths ?? {})) {
    if (!DOCUMENTED.test(path) || !item) continue;
    const completed: Record<string, Operation> = {};
    for (const [method, operation] of Object.entries(item))
      completed[method] = complete(path, method, operation as Operation, options.isPublic);
    paths[path] = completed;
  }
  return {
    ...spec,
    paths,
    tags: [...new Set(TAGS.map(([, name]) => name)), 'Other'].map((name) => ({ name })),
    components: {
      ...spec.components,
      schemas: { ...spec.components?.schemas, Error: ERROR_SCHEMA },
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'session',
          description: 'The website’s session (with X-CSRF-Token on changes).',
        },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: SIGNING },
      },
    },
  };
}

/** `GET /rest/v1/openapi.json`: the document of every route `app` has so far, built on first request. */
export function serveOpenApi(app: Hono<AppEnv>, siteOrigin: SiteOrigin): void {
  let reference: Promise<OpenAPIV3_1.Document> | undefined;
  app.get('/rest/v1/openapi.json', async (c) => {
    const serverUrl = siteOrigin.url('/').replace(/\/$/, '');
    reference ??= openApiDocument(app, { serverUrl, isPublic: isPublicRoute });
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(await reference);
  });
}
