// The allow-list of routes a visitor (no session) may get a 2xx from, each with the reason. The
// security suite (tests/security/route-table.ts) holds every other route to answering a visitor
// 401: a new route is private until someone decides otherwise here. The OpenAPI document
// (openapi.ts) marks these as needing no authentication.

export const PUBLIC_ROUTES: Readonly<Record<string, string>> = {
  'GET /healthz': 'load balancer probe',
  'GET /readyz': 'load balancer readiness probe; says which check failed, never why',
  'GET /rest/v1/csrf-token': 'hands a page its CSRF cookie before any form; nothing personal',
  'GET /rest/v1/currencies': 'reference data for the listing and calculator',
  'GET /rest/v1/currencies/:code': 'reference data for the listing and calculator',
  'GET /rest/v1/calculator/currency': 'reference data for the calculator',
  'GET /rest/v1/countries': 'reference data for the forms',
  'GET /rest/v1/timezones': 'reference data for the forms',
  'GET /rest/v1/payment-methods': 'reference data for the listing filters',
  'GET /rest/v1/vendorlanding/currency': 'the vendor landing page is a marketing page',
  'GET /rest/v1/calculator': 'market data on the public calculator',
  'GET /rest/v1/calculator/chart': 'market data on the public calculator',
  'GET /rest/v1/crypto-fiat-rates': 'market rates shown on public pages',
  'GET /rest/v1/vendorlanding/graph': 'the vendor landing page is a marketing page',
  'GET /rest/v1/offers': 'the offer listing is public (spec section 2)',
  'GET /rest/v1/offers/:hash': 'an offer page is public; the payment instructions are not in it',
  'GET /rest/v1/users/:username/offers': "a vendor's public offers",
  'GET /rest/v1/users/:username/profile': 'public profiles (the e-mail is never in them)',
  'GET /rest/v1/users/:username/feedbacks': 'ratings are public on the profile',
  'GET /rest/v1/cookie-policy': 'the cookie banner works before sign-in',
  'POST /rest/v1/cookie-policy': 'the cookie banner works before sign-in',
  'GET /location/search': 'the listing location filter',
  'GET /rest/v1/auth/challenge': 'the sign-in and registration forms solve it first',
  'POST /rest/v1/auth/register': 'signing up',
  'POST /rest/v1/auth/login': 'signing in',
  'GET /auth/verify-email': 'the mailed link: its token is the credential',
  'POST /rest/v1/auth/forgot-password': 'asking for a reset mail; answers the same for any address',
  'GET /rest/v1/auth/reset-password/:token': 'the mailed link: its token is the credential',
  'POST /rest/v1/auth/reset-password': 'the mailed link: its token is the credential',
  'GET /rest/v1/castle/review-device/:token': 'the mailed link: its token is the credential',
  'POST /rest/v1/castle/review-device': 'the mailed link: its token is the credential',
  'GET /rest/v1/users/current_user': 'pages ask without knowing; visitors get isLogged false',
  'GET /uploads/avatars/:name': 'avatars are shown on public profiles and offers',
  'GET /rest/v1/dispute/reasons': 'static list of reasons',
  'GET /rest/v1/hedging/settings': 'conversion limits, no personal data',
  'GET /rest/v1/proof': 'the published roots of the proof of liabilities: totals only, nobody in them',
  'GET /rest/v1/proof/reserves':
    "the platform's own addresses and balances beside the published totals: nobody in them",
  'GET /rest/v1/transparency':
    'dispute statistics: counts, medians and shares, withheld under five disputes; nobody in them',
  'GET /rest/v1/openapi.json': 'the API reference is public',
  'GET /.well-known/coinfair-statement-key': 'the public key anyone checks a signed statement with',
};

/** Whether `METHOD /path` (Hono's pattern) is open to visitors. */
export const isPublicRoute = (routeKey: string) => routeKey in PUBLIC_ROUTES;
