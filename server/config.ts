import { isAbsolute, relative, resolve } from 'node:path';
import * as v from 'valibot';
import { displayUrl } from '../db/display-url.ts';
import { OBSERVABILITY_SETTINGS } from './observability/settings.ts';
import { DEVELOPMENT_API_KEY_ROOT } from './services/api-keys/secrets.ts';
import { DEVELOPMENT_GIFT_CODE_KEY } from './services/gift-cards/vault.ts';
import { statementKeyProblem } from './services/statements/keys.ts';
import {
  accountKeyProblem,
  BTC_KEY_PREFIXES,
  DEVELOPMENT_BTC_XPUB,
  DEVELOPMENT_TRON_XPUB,
  TRON_KEY_PREFIXES,
} from './services/wallet/extended-keys.ts';

// The one place that reads the environment. A bad value stops start-up with a message naming the
// variable, instead of surfacing later as a confusing runtime failure.

const port = v.pipe(
  v.optional(v.string(), '4321'),
  v.regex(/^\d+$/, 'must be a whole number'),
  v.transform(Number),
  v.integer(),
  v.minValue(0, 'must be between 0 and 65535'),
  v.maxValue(65535, 'must be between 0 and 65535'),
);

/** Minutes of a dispute's deadline: 5 minutes to 30 days. */
const disputeMinutes = (fallback: string) =>
  v.pipe(
    v.optional(v.string(), fallback),
    v.regex(/^\d+$/, 'must be a whole number of minutes'),
    v.transform(Number),
    v.minValue(5, 'must be between 5 and 43200'),
    v.maxValue(43200, 'must be between 5 and 43200'),
  );

export const DEFAULT_TELEGRAM_BOT_NAME = 'CoinfairBot';

/** Folders whose files are served as they are: uploads must never land in one. */
const WEB_ROOTS = ['public', 'build'];

function isInside(path: string, folder: string): boolean {
  const rel = relative(resolve(folder), resolve(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** An account-level extended public key; the message says what is wrong without repeating the key. */
const accountKey = (prefixes: readonly string[], fallback: string) =>
  v.pipe(
    v.optional(v.string(), fallback),
    v.trim(),
    v.rawCheck(({ dataset, addIssue }) => {
      const problem = dataset.typed ? accountKeyProblem(dataset.value, prefixes) : undefined;
      if (problem) addIssue({ message: problem });
    }),
  );

/** Why DATABASE_URL names no database this server can open, or undefined when it does. */
function databaseUrlProblem(value: string): string | undefined {
  if (/^postgres(ql)?:\/\//i.test(value)) {
    if (!URL.canParse(value)) return 'must be a URL such as postgres://user:password@127.0.0.1:5432/coinfair';
    const url = new URL(value);
    if (!url.hostname) return 'names no host: postgres://user:password@<host>:5432/coinfair';
    if (url.pathname.length < 2) return 'names no database: postgres://user:password@host:5432/<database>';
    return undefined;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    return 'must be a SQLite file path (data/marketplace.db) or a postgres:// URL';
  }
  return undefined;
}

/** A URL's password, as a start-up error must not print it. */

/** Settings whose value is not printed whole in a start-up error (an extended private key pasted by mistake). */
const UNPRINTED = new Set([
  'WALLET_BTC_XPUB',
  'WALLET_TRON_XPUB',
  'BITCOIND_RPC_URL',
  'GIFT_CODE_KEY',
  'API_KEY_ROOT',
  'METRICS_TOKEN',
  'STATEMENT_KEY',
]);

const ConfigFields = v.object({
  ...OBSERVABILITY_SETTINGS,
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'production'),
  PORT: port,
  HOST: v.pipe(v.optional(v.string(), '127.0.0.1'), v.minLength(1, 'must not be empty')),
  /**
   * A SQLite file (the embedded default) or `postgres://user:password@host:5432/database` for
   * several processes on PostgreSQL (issue 17, docs/deploy.md).
   */
  DATABASE_URL: v.pipe(
    v.optional(v.string(), 'data/marketplace.db'),
    v.minLength(1, 'must not be empty'),
    v.check(
      (value) => databaseUrlProblem(value) === undefined,
      (issue) => databaseUrlProblem(String(issue.input)) ?? 'is not a database',
    ),
  ),
  /** Connections each process keeps to PostgreSQL. */
  DATABASE_POOL_SIZE: v.pipe(
    v.optional(v.string(), '10'),
    v.regex(/^\d+$/, 'must be a whole number'),
    v.transform(Number),
    v.minValue(1, 'must be at least 1'),
    v.maxValue(200, 'must be at most 200'),
  ),
  /**
   * `redis://host:6379` turns on what several processes share: realtime events reach sockets held
   * by another process. Without it everything stays in this process, as on one machine.
   */
  REDIS_URL: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (value) => /^rediss?:\/\/[^/\s]+/i.test(value) && URL.canParse(value),
        'must be a URL such as redis://127.0.0.1:6379',
      ),
    ),
  ),
  /**
   * What this deployment's Redis keys and channels begin with, so two deployments (or parallel
   * test runs) can share one Redis: pub/sub channels ignore Redis's database number.
   */
  REDIS_PREFIX: v.optional(
    v.pipe(v.string(), v.regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'must be 1 to 64 letters, digits, or : _ . -')),
    'coinfair:',
  ),
  /** Origins allowed to open the realtime socket and send mutating requests, beyond the request's own host. */
  PUBLIC_ORIGIN: v.optional(v.pipe(v.string(), v.url('must be a URL such as https://example.com'))),
  /** `simulated` (embedded random walk) or `ticker` (polls PRICE_FEED_URL). */
  PRICE_FEED: v.optional(v.picklist(['simulated', 'ticker'], 'must be simulated or ticker'), 'simulated'),
  /** An exchange-rates endpoint in the shape of Coinbase's `/v2/exchange-rates`; needed by `ticker`. */
  PRICE_FEED_URL: v.optional(
    v.pipe(
      v.string(),
      v.url('must be a URL such as https://api.coinbase.com/v2/exchange-rates'),
      v.check((url) => /^https?:\/\//i.test(url), 'must be an http:// or https:// URL'),
    ),
  ),
  /** Seconds between simulated price ticks, or between polls of the ticker. */
  PRICE_TICK_SECONDS: v.pipe(
    v.optional(v.string(), '10'),
    v.regex(/^\d+$/, 'must be a whole number of seconds'),
    v.transform(Number),
    v.minValue(1, 'must be at least 1'),
  ),
  /** `on` behind a reverse proxy: the client address is the last hop of X-Forwarded-For. */
  TRUST_PROXY: v.optional(v.picklist(['on', 'off']), 'off'),
  /** `off` skips the proof-of-work challenge on register and login (automation, load tests). */
  AUTH_CHALLENGE: v.optional(v.picklist(['on', 'off']), 'on'),
  /**
   * `on`: an empty database gets the demo accounts and offers, and the demo vendors come and go
   * (db/seed/demo.ts). `off` for a real marketplace: reference data only.
   */
  DEMO_DATA: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'on'),
  /** `off`: device review shows no city or country and the offline geo database is never loaded. */
  GEOIP: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'on'),
  /**
   * The country of visitors whose address places nowhere (localhost, private networks, GEOIP=off,
   * a country we do not list): their listings, calculator and currency follow it (issue 19).
   */
  DEFAULT_COUNTRY: v.optional(
    v.pipe(v.string(), v.toUpperCase(), v.regex(/^[A-Z]{2}$/, 'must be a two-letter country code (ISO 3166-1)')),
    'US',
  ),
  /** `smtp://user:pass@host:587` or `smtps://…`; unset keeps mail in the database outbox. */
  SMTP_URL: v.optional(v.pipe(v.string(), v.regex(/^smtps?:\/\/\S+$/, 'must be an smtp:// or smtps:// URL'))),
  MAIL_FROM: v.optional(v.pipe(v.string(), v.minLength(3)), 'Coinfair <no-reply@coinfair.example>'),
  /** Uploaded and processed images (avatars); read only through the API, never as static files. */
  UPLOADS_DIR: v.pipe(
    v.optional(v.string(), 'data/uploads'),
    v.minLength(1, 'must not be empty'),
    v.check((dir) => !dir.includes('\0'), 'must be a folder path'),
    v.check(
      (dir) => !WEB_ROOTS.some((root) => isInside(dir, root)),
      `must be outside the folders served as static files (${WEB_ROOTS.join(', ')})`,
    ),
  ),
  /** The Telegram bot's username; subscription links are https://t.me/<name>?start=<token>. */
  TELEGRAM_BOT_NAME: v.pipe(
    v.optional(v.string(), DEFAULT_TELEGRAM_BOT_NAME),
    // Telegram's rule for bot usernames: 5-32 letters, digits or underscores, ending in "bot".
    v.regex(/^[A-Za-z][A-Za-z0-9_]{1,28}bot$/i, 'must be a Telegram bot username such as CoinfairBot'),
  ),
  /**
   * The BIP84 account public key BTC deposit addresses derive from (m/84'/0'/0' as zpub or xpub;
   * vpub/tpub for testnet). The default is the BIP84 test vector's: development only.
   */
  WALLET_BTC_XPUB: accountKey(BTC_KEY_PREFIXES, DEVELOPMENT_BTC_XPUB),
  /** The TRON account public key (xpub of m/44'/195'/0') USDT (TRC-20) deposit addresses derive from. */
  WALLET_TRON_XPUB: accountKey(TRON_KEY_PREFIXES, DEVELOPMENT_TRON_XPUB),
  /**
   * The key gift codes are sealed with (AES-256-GCM; 64 hexadecimal characters, `openssl rand -hex
   * 32`). The default is public: development only, refused with DEMO_DATA=off. Changing it makes
   * the codes already saved unreadable.
   */
  GIFT_CODE_KEY: v.pipe(
    v.optional(v.string(), DEVELOPMENT_GIFT_CODE_KEY),
    v.regex(/^[0-9a-fA-F]{64}$/, 'must be 32 bytes as 64 hexadecimal characters (openssl rand -hex 32)'),
  ),
  /**
   * `on` lets webhook URLs point at private, loopback and link-local addresses (tests, development
   * against a receiver on this machine). `off`, the default, refuses them after DNS (no SSRF).
   */
  WEBHOOKS_ALLOW_LOCAL: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'off'),
  /**
   * The root API-key secrets are derived from (64 hexadecimal characters, `openssl rand -hex 32`):
   * the database keeps no secret, only hashes. The default is public: development only, refused
   * with DEMO_DATA=off. Changing it turns every API key off.
   */
  API_KEY_ROOT: v.pipe(
    v.optional(v.string(), DEVELOPMENT_API_KEY_ROOT),
    v.regex(/^[0-9a-fA-F]{64}$/, 'must be 32 bytes as 64 hexadecimal characters (openssl rand -hex 32)'),
  ),
  /**
   * The Ed25519 key statements are signed with (docs/decisions/147-signed-statements.md): a PKCS#8
   * PEM (`openssl genpkey -algorithm ed25519`; line breaks may be written `\n`) or its 32-byte seed
   * as 64 hexadecimal characters. Unset (and no STATEMENT_KEY_FILE): the first process makes one
   * and keeps it in the database. Changing it leaves old statements checkable only by the old key.
   */
  STATEMENT_KEY: v.optional(
    v.pipe(
      v.string(),
      v.rawCheck(({ dataset, addIssue }) => {
        const problem = dataset.typed ? statementKeyProblem(dataset.value) : undefined;
        if (problem) addIssue({ message: problem });
      }),
    ),
  ),
  /** A file holding what STATEMENT_KEY would (a mounted secret); read at start. */
  STATEMENT_KEY_FILE: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
  /** Seconds a BTC↔USDT conversion quote stays valid. */
  QUOTE_TTL_SECONDS: v.pipe(
    v.optional(v.string(), '30'),
    v.regex(/^\d+$/, 'must be a whole number of seconds'),
    v.transform(Number),
    v.minValue(5, 'must be between 5 and 300'),
    v.maxValue(300, 'must be between 5 and 300'),
  ),
  /** Minutes after the buyer marks a trade paid before either party may open a dispute (0: at once). */
  DISPUTE_WAIT_MINUTES: v.pipe(
    v.optional(v.string(), '30'),
    v.regex(/^\d+$/, 'must be a whole number of minutes'),
    v.transform(Number),
    v.maxValue(1440, 'must be between 0 and 1440'),
  ),
  /**
   * A dispute's deadlines (docs/decisions/154-dispute-deadlines.md): minutes the counterpart has to
   * answer, a moderator to take it, and the moderator who took it to decide. A missed moderator
   * deadline escalates the dispute (decision 155).
   */
  DISPUTE_ANSWER_MINUTES: disputeMinutes('720'),
  DISPUTE_TAKE_MINUTES: disputeMinutes('240'),
  DISPUTE_DECISION_MINUTES: disputeMinutes('1440'),
  /**
   * Hours between publications of the proof of liabilities (docs/decisions/146-proof-of-liabilities.md),
   * made by the jobs' leader; 0 publishes only on `npm run admin -- proof:publish`.
   */
  PROOF_INTERVAL_HOURS: v.pipe(
    v.optional(v.string(), '24'),
    v.regex(/^\d+$/, 'must be a whole number of hours'),
    v.transform(Number),
    v.maxValue(8760, 'must be between 0 and 8760'),
  ),
  /**
   * `simulated`: an embedded chain in the database, fed by `npm run admin -- chain:deposit` and
   * mined every CHAIN_BLOCK_SECONDS. `bitcoind`: a Bitcoin Core wallet over JSON-RPC (BITCOIND_RPC_URL).
   */
  CHAIN: v.optional(v.picklist(['simulated', 'bitcoind'], 'must be simulated or bitcoind'), 'simulated'),
  /** `http://user:password@127.0.0.1:8332/wallet/coinfair`: the node's JSON-RPC, wallet path included. */
  BITCOIND_RPC_URL: v.optional(
    v.pipe(
      v.string(),
      v.url('must be a URL such as http://user:password@127.0.0.1:8332/wallet/coinfair'),
      v.check((url) => /^https?:\/\//i.test(url), 'must be an http:// or https:// URL'),
    ),
  ),
  /** Seconds between simulated blocks; with CHAIN=bitcoind, between polls of the node. */
  CHAIN_BLOCK_SECONDS: v.pipe(
    v.optional(v.string(), '30'),
    v.regex(/^\d+$/, 'must be a whole number of seconds'),
    v.transform(Number),
    v.minValue(1, 'must be between 1 and 3600'),
    v.maxValue(3600, 'must be between 1 and 3600'),
  ),
});

/** Deposits to the development keys' addresses can be taken by anyone who knows the test mnemonic. */
const OWN_WALLET_KEY =
  "must be your own wallet's account public key when DEMO_DATA=off (the default belongs to a public test mnemonic)";

const ConfigSchema = v.pipe(
  ConfigFields,
  v.forward(
    v.partialCheck(
      [['STATEMENT_KEY'], ['STATEMENT_KEY_FILE']],
      (env) => env.STATEMENT_KEY === undefined || env.STATEMENT_KEY_FILE === undefined,
      'must not be set together with STATEMENT_KEY: give the key one way',
    ),
    ['STATEMENT_KEY_FILE'],
  ),
  v.forward(
    v.partialCheck(
      [['PRICE_FEED'], ['PRICE_FEED_URL']],
      (env) => env.PRICE_FEED !== 'ticker' || env.PRICE_FEED_URL !== undefined,
      'is required when PRICE_FEED=ticker (for example https://api.coinbase.com/v2/exchange-rates)',
    ),
    ['PRICE_FEED_URL'],
  ),
  v.forward(
    v.partialCheck(
      [['CHAIN'], ['BITCOIND_RPC_URL']],
      (env) => env.CHAIN !== 'bitcoind' || env.BITCOIND_RPC_URL !== undefined,
      'is required when CHAIN=bitcoind (for example http://user:password@127.0.0.1:8332/wallet/coinfair)',
    ),
    ['BITCOIND_RPC_URL'],
  ),
  v.forward(
    v.partialCheck(
      [['DEMO_DATA'], ['WALLET_BTC_XPUB']],
      (env) => env.DEMO_DATA !== 'off' || env.WALLET_BTC_XPUB !== DEVELOPMENT_BTC_XPUB,
      OWN_WALLET_KEY,
    ),
    ['WALLET_BTC_XPUB'],
  ),
  v.forward(
    v.partialCheck(
      [['DEMO_DATA'], ['WALLET_TRON_XPUB']],
      (env) => env.DEMO_DATA !== 'off' || env.WALLET_TRON_XPUB !== DEVELOPMENT_TRON_XPUB,
      OWN_WALLET_KEY,
    ),
    ['WALLET_TRON_XPUB'],
  ),
  v.forward(
    v.partialCheck(
      [['DEMO_DATA'], ['GIFT_CODE_KEY']],
      (env) => env.DEMO_DATA !== 'off' || env.GIFT_CODE_KEY.toLowerCase() !== DEVELOPMENT_GIFT_CODE_KEY,
      'must be your own secret key when DEMO_DATA=off (the default is public): openssl rand -hex 32',
    ),
    ['GIFT_CODE_KEY'],
  ),
  v.forward(
    v.partialCheck(
      [['DEMO_DATA'], ['API_KEY_ROOT']],
      (env) => env.DEMO_DATA !== 'off' || env.API_KEY_ROOT.toLowerCase() !== DEVELOPMENT_API_KEY_ROOT,
      'must be your own secret key when DEMO_DATA=off (the default is public): openssl rand -hex 32',
    ),
    ['API_KEY_ROOT'],
  ),
);

export type Config = v.InferOutput<typeof ConfigSchema>;

export class ConfigError extends Error {}

export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = v.safeParse(ConfigSchema, env);
  if (result.success) return result.output;
  const lines = result.issues.map((issue) => {
    const name = v.getDotPath(issue) ?? 'environment';
    const value = env[name] ?? '';
    const shown = UNPRINTED.has(name) && value.length > 8 ? `${value.trim().slice(0, 4)}…` : displayUrl(value);
    return `  ${name}=${JSON.stringify(shown)}: ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}
