import * as v from 'valibot';

// The operators' settings (issue 25, docs/operations.md), part of the server's configuration
// (server/config.ts). The metrics are either on a port of their own, bound to an address only the
// scraper reaches, or on the public port behind a bearer token; with neither, /metrics answers 404.

export const OBSERVABILITY_SETTINGS = {
  /** How much goes to the log: `info` has one line per request; `warn` only problems. */
  LOG_LEVEL: v.optional(
    v.picklist(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      'must be one of fatal, error, warn, info, debug, trace, silent',
    ),
    'info',
  ),
  /** `json` (one object per line, for a collector) or `pretty` (development; needs the dev dependencies). */
  LOG_FORMAT: v.optional(v.picklist(['json', 'pretty'], 'must be json or pretty')),
  /** A bearer token that opens /metrics on the public port (at least 24 characters). */
  METRICS_TOKEN: v.optional(
    v.pipe(v.string(), v.regex(/^[\x21-\x7e]{24,256}$/, 'must be 24 to 256 visible characters (openssl rand -hex 24)')),
  ),
  /** A port of its own for /metrics (and /healthz, /readyz), without a token: bind it privately. */
  METRICS_PORT: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'must be a whole number'),
      v.transform(Number),
      v.integer(),
      v.minValue(0, 'must be between 0 and 65535'),
      v.maxValue(65535, 'must be between 0 and 65535'),
    ),
  ),
  /** The address METRICS_PORT listens on: loopback unless the scraper is elsewhere. */
  METRICS_HOST: v.pipe(v.optional(v.string(), '127.0.0.1'), v.minLength(1, 'must not be empty')),
  /** Minutes between the jobs leader's ledger verifications (the ledger_verified metric); 0 turns them off. */
  LEDGER_VERIFY_MINUTES: v.pipe(
    v.optional(v.string(), '60'),
    v.regex(/^\d+$/, 'must be a whole number of minutes'),
    v.transform(Number),
    v.maxValue(10_080, 'must be at most 10080 (a week)'),
  ),
};
