import type { App } from '../../server/app.ts';
import { PUBLIC_ROUTES } from '../../server/http/public-routes.ts';
import { createTestApp } from '../support/test-app.ts';
import { SAMPLED_ROUTES } from './support-requests.ts';

// The security suite's view of the API: the routes the real app registers (`app.routes`), each
// classified by who may call it and which objects its path names. The suite walks this table,
// so a route added tomorrow is tried by the authorisation matrix, the CSRF checks and the fuzzer
// without anyone remembering to. What the table cannot classify (a path parameter it has no
// fixture for, a mutating route without a sample request) is a failing test that says what to
// add, never a silent skip.

export interface ApiRoute {
  method: string;
  /** With Hono's `:param` placeholders, as registered. */
  path: string;
  /** `METHOD path`: the key of every table below. */
  key: string;
  params: string[];
  /** Changes state: every method but GET, HEAD and OPTIONS (plus STATE_CHANGING_GETS). */
  mutating: boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * reset-phone removes the person's number on a GET (the spec's shape). The CSRF middleware lets
 * GETs through, so the route checks the header itself (server/routes/phone.ts); the CSRF suite
 * holds it to the same rule as a POST.
 */
export const STATE_CHANGING_GETS: ReadonlySet<string> = new Set(['GET /rest/v1/users/reset-phone']);

/** Every route of the app once, without Hono's middleware entries (method ALL). */
export function apiRoutes(app: App): ApiRoute[] {
  const seen = new Map<string, ApiRoute>();
  for (const { method, path } of app.routes) {
    if (method === 'ALL') continue;
    const key = `${method} ${path}`;
    if (seen.has(key)) continue;
    const params = [...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
    seen.set(key, { method, path, key, params, mutating: !SAFE_METHODS.has(method) || STATE_CHANGING_GETS.has(key) });
  }
  return [...seen.values()];
}

/** What a path parameter names; each kind has a fixture in support-fixtures.ts. */
export type ObjectKind =
  | 'offer'
  | 'trade'
  | 'verification-document'
  | 'trade-attachment'
  | 'avatar'
  | 'username'
  | 'currency'
  | 'device-review-token'
  | 'password-reset-token'
  | 'gift-card'
  | 'gift-card-image'
  | 'bank-account'
  | 'data-export'
  | 'referral'
  | 'webhook-delivery'
  | 'api-key'
  | 'person'
  | 'sendout';

/**
 * Which object a parameter names. `:id` means different things under different paths, so a rule
 * may narrow by path; the first matching rule wins.
 */
const OBJECT_PARAMS: { param: string; path?: RegExp; kind: ObjectKind }[] = [
  { param: 'hash', path: /^\/rest\/v1\/offers\//, kind: 'offer' },
  { param: 'offerHash', path: /^\/rest\/v1\/gift-cards\/unused\//, kind: 'offer' },
  // A person's saved gift cards, a card in a trade, and the cards' pictures.
  { param: 'id', path: /^\/rest\/v1\/gift-cards\//, kind: 'gift-card' },
  { param: 'cardId', path: /^\/rest\/v1\/trade\/:id\/gift-cards\//, kind: 'gift-card' },
  { param: 'publicId', path: /^\/uploads\/gift-cards\//, kind: 'gift-card-image' },
  { param: 'id', path: /^\/rest\/v1\/verification\/documents\//, kind: 'verification-document' },
  // A person's saved bank accounts (sharing one into a trade names the trade).
  { param: 'id', path: /^\/rest\/v1\/bankaccounts\//, kind: 'bank-account' },
  // A person's data exports: only theirs to read and download.
  { param: 'id', path: /^\/rest\/v1\/exports\//, kind: 'data-export' },
  // A person A referred: their tier-2 list is A's to read.
  { param: 'id', path: /^\/rest\/v1\/users\/:id\/referrals\//, kind: 'referral' },
  // A merchant's webhook deliveries: only theirs to resend.
  { param: 'id', path: /^\/rest\/v1\/webhooks\/deliveries\//, kind: 'webhook-delivery' },
  // A person's API keys: only theirs to revoke.
  { param: 'id', path: /^\/rest\/v1\/api-keys\//, kind: 'api-key' },
  // The operator console (staff only): a person's file and actions, a trade, a sendout.
  { param: 'id', path: /^\/rest\/v1\/operators\/people\//, kind: 'person' },
  { param: 'id', path: /^\/rest\/v1\/operators\/trades\//, kind: 'trade' },
  { param: 'id', path: /^\/rest\/v1\/operators\/sendouts\//, kind: 'sendout' },
  // Trades, their files and ratings, the moderators' actions on them, and their push channel.
  { param: 'id', path: /^\/rest\/v1\/(trade|feedback|moderation\/trades)\//, kind: 'trade' },
  { param: 'id', path: /^\/trade\/push-authorize\//, kind: 'trade' },
  { param: 'publicId', path: /^\/uploads\/trades\//, kind: 'trade-attachment' },
  { param: 'name', path: /^\/uploads\/avatars\//, kind: 'avatar' },
  { param: 'username', kind: 'username' },
  { param: 'code', path: /^\/rest\/v1\/currencies\//, kind: 'currency' },
  { param: 'token', path: /^\/rest\/v1\/castle\/review-device\//, kind: 'device-review-token' },
  { param: 'token', path: /^\/rest\/v1\/auth\/reset-password\//, kind: 'password-reset-token' },
];

/** Who may call a route at all. */
export type Audience = 'public' | 'signed-in' | 'staff';

/** The allow-list of routes a visitor may call lives with the server, which documents it too. */
export { PUBLIC_ROUTES } from '../../server/http/public-routes.ts';

/** Moderator and admin routes: an ordinary person, the parties included, is refused. */
export const STAFF_ROUTES: ReadonlySet<string> = new Set([
  'GET /rest/v1/moderation/disputes',
  'POST /rest/v1/moderation/trades/:id/resolve',
  'POST /rest/v1/moderation/trades/:id/reopen',
  'POST /rest/v1/moderation/trades/:id/take',
  'GET /rest/v1/verification/queue',
  'POST /rest/v1/verification/documents/:id/review',
]);

/** Anything under these prefixes is staff-only: a new moderation route cannot be missed. */
const STAFF_PREFIXES = ['/rest/v1/moderation/', '/rest/v1/admin/', '/rest/v1/operators/'];

/**
 * Routes that name someone else's object on purpose, for any signed-in person: the matrix
 * expects a visitor's 401 but lets other people pass.
 */
export const ANY_SIGNED_IN_OBJECT_ROUTES: Readonly<Record<string, string>> = {
  'POST /rest/v1/users/:username/trust': 'anyone signed in may trust or block another person',
  'GET /rest/v1/gift-cards/unused/:offerHash':
    'anyone signed in lists their own free cards for a public gift-card offer; no one else’s cards are in it',
};

/**
 * Routes whose path token is the credential (a mailed link): whoever holds it passes, so the
 * matrix tries the others with a token of the right shape that was never issued.
 */
export const TOKEN_ROUTES: ReadonlySet<string> = new Set([
  'GET /rest/v1/castle/review-device/:token',
  'GET /rest/v1/auth/reset-password/:token',
]);

/** How the matrix treats the object a route names. */
export type ObjectAccess = 'owner' | 'anyone' | 'any-signed-in' | 'token' | 'staff';

export interface ClassifiedRoute extends ApiRoute {
  audience: Audience;
  objects: { param: string; kind: ObjectKind }[];
  /** Set when the path names an object. */
  objectAccess?: ObjectAccess;
}

export interface Classification {
  routes: ClassifiedRoute[];
  /** What the table could not classify, each with what to add; the suite fails on any. */
  problems: string[];
}

function audienceOf(route: ApiRoute): Audience {
  if (STAFF_ROUTES.has(route.key) || STAFF_PREFIXES.some((prefix) => route.path.startsWith(prefix))) return 'staff';
  return route.key in PUBLIC_ROUTES ? 'public' : 'signed-in';
}

function objectAccessOf(route: ApiRoute, audience: Audience): ObjectAccess {
  if (audience === 'staff') return 'staff';
  if (TOKEN_ROUTES.has(route.key)) return 'token';
  if (audience === 'public') return 'anyone';
  return route.key in ANY_SIGNED_IN_OBJECT_ROUTES ? 'any-signed-in' : 'owner';
}

/**
 * Classifies every route. `sampled` are the routes that have a sample request (support-requests.ts):
 * each mutating route, each route with an object in its path and each moderator route needs one,
 * or the matrix could only prove that a malformed request is refused, not that the person is.
 */
export function classifyRoutes(routes: ApiRoute[], sampled: ReadonlySet<string>): Classification {
  const problems: string[] = [];
  const classified = routes.map((route): ClassifiedRoute => {
    const audience = audienceOf(route);
    const objects = route.params.flatMap((param) => {
      const rule = OBJECT_PARAMS.find((r) => r.param === param && (!r.path || r.path.test(route.path)));
      if (rule) return [{ param, kind: rule.kind }];
      problems.push(
        `${route.key}: the parameter :${param} names no known object. Add a rule to OBJECT_PARAMS in ` +
          'tests/security/route-table.ts (and a fixture for a new kind in tests/security/support-fixtures.ts).',
      );
      return [];
    });
    if ((route.mutating || route.params.length > 0 || audience === 'staff') && !sampled.has(route.key)) {
      problems.push(
        `${route.key}: no sample request. Add one to REQUESTS in tests/security/support-requests.ts: who owns ` +
          'the object, a valid body, and the answer the owner gets.',
      );
    }
    return {
      ...route,
      audience,
      objects,
      ...(route.params.length > 0 ? { objectAccess: objectAccessOf(route, audience) } : {}),
    };
  });
  const keys = new Set(routes.map((r) => r.key));
  const listed = [
    ...Object.keys(PUBLIC_ROUTES),
    ...STAFF_ROUTES,
    ...Object.keys(ANY_SIGNED_IN_OBJECT_ROUTES),
    ...TOKEN_ROUTES,
    ...STATE_CHANGING_GETS,
    ...sampled,
  ];
  for (const key of new Set(listed)) {
    if (!keys.has(key)) problems.push(`${key}: listed in tests/security/ but the app has no such route; remove it.`);
  }
  return { routes: classified, problems };
}

/** The real app's route table, classified: built over a throwaway test database and closed. */
export async function loadRouteTable(): Promise<Classification> {
  const t = await createTestApp();
  try {
    return classifyRoutes(apiRoutes(t.app), SAMPLED_ROUTES);
  } finally {
    await t.close();
  }
}
