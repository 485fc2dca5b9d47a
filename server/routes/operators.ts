import { type Context, Hono, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { type AppEnv, personContextOf } from '../http/auth.ts';
import { validate } from '../http/validate.ts';
import { currentRequestId } from '../observability/log.ts';
import type { Services } from '../services/container.ts';
import type { PersonContext } from '../services/context.ts';
import { operatorOf } from '../services/operators/access.ts';
import type { AccountAction } from '../services/operators/account-actions.ts';
import { REASON_MAX_LENGTH } from '../services/operators/second-factor.ts';
import { SENDOUT_LISTS } from '../services/operators/sendouts.ts';

// The operator console's API (issue 25, "Act"; docs/operations.md "Operator console"). Staff only:
// moderators may use the lookups marked (M), administrators everything (decision 150); anyone
// else 403 FORBIDDEN (`operators_only`), a moderator on an administrator's route 403
// (`operators_admins_only`), a visitor 401. Every POST that changes something takes
// `{ reason, code }`: the reason (1-500 characters) goes to the audit log, the code is a current
// code of the operator's authenticator app or a recovery code (decision 151): missing 401
// TWO_FACTOR_REQUIRED, wrong 401 TWO_FACTOR_INVALID, no factor set up 409 TWO_FACTOR_NOT_ENABLED,
// each refusal a row of the audit log. Unknown people, trades and sendouts are 404 on `id`.
//
//   GET  /rest/v1/operators/people?q=…                       (M) exact e-mail, username or usr_… → [person]
//   GET  /rest/v1/operators/people/{usr_…}                   (M) the file: person, verification and limits,
//                                                            balances, escrow, recent trades and disputes;
//                                                            administrators also devices, live sessions, ledger
//   POST /rest/v1/operators/people/{usr_…}/ban               {reason, code} status banned, sessions end
//   POST /rest/v1/operators/people/{usr_…}/suspend           {reason, code} status suspended, sessions end
//   POST /rest/v1/operators/people/{usr_…}/reinstate         {reason, code} status active
//   POST /rest/v1/operators/people/{usr_…}/reset-two-factor  {reason, code} factor removed, sessions end
//   POST /rest/v1/operators/people/{usr_…}/end-sessions      {reason, code} every session ends
//   POST /rest/v1/operators/people/{usr_…}/verify-identity   {reason, code, full_name?} identity verified,
//                                                            the person notified (verification_reviewed)
//   POST /rest/v1/operators/people/{usr_…}/verify-address    {reason, code} address verified, notified
//        → { action, user, changed, sessionsEnded, person }
//   GET  /rest/v1/operators/trades/{hash}                    (M) trade, transitions, ledger transactions, chat
//   GET  /rest/v1/operators/sendouts?list=waiting|failed&page  sendouts, newest first; meta.nextPageExist
//   POST /rest/v1/operators/sendouts/{chn_…}/retry           {reason, code} a stuck broadcast is tried again
//   POST /rest/v1/operators/sendouts/{chn_…}/cancel          {reason, code} a waiting sendout's hold goes back
//                                                            to the wallet (409 SENDOUT_STATE_CONFLICT otherwise)
//   POST /rest/v1/operators/ledger/verify                    runs ledger:verify now → the result (no code: it
//                                                            changes nothing; it is audited)
//   GET  /rest/v1/operators/ledger/verification              the last result (console or CLI), or null
//   GET  /rest/v1/operators/fees?from=YYYY-MM-DD&to=…        fee income per UTC day, currency and payment-method
//                                                            group (≤ 366 days; default the last 30)
//   GET  /rest/v1/operators/audit?operator=usr_…|cli&target=…&action=…&page  the audit log, newest first

const PersonParam = v.object({ id: v.pipe(v.string(), v.regex(/^usr_[0-9A-Za-z]{16}$/, 'must be a person id')) });
const TradeParam = v.object({ id: v.pipe(v.string(), v.regex(/^[0-9A-Za-z]{6,32}$/, 'must be a trade id')) });
const SendoutParam = v.object({ id: v.pipe(v.string(), v.regex(/^chn_[0-9A-Za-z]{16}$/, 'must be a sendout id')) });

const code = v.optional(v.pipe(v.string('must be text'), v.maxLength(64, 'is too long')));
/** Blank and too long are the service's to refuse (second-factor.ts), with the same message as the CLI's. */
const reason = v.pipe(v.string('must be text'), v.maxLength(REASON_MAX_LENGTH * 4, 'is too long'));
const ActionBody = v.object({ reason, code });
const VerifyIdentityBody = v.object({
  reason,
  code,
  full_name: v.optional(v.pipe(v.string('must be text'), v.maxLength(200, 'is too long'))),
});

const page = v.optional(
  v.pipe(v.string(), v.regex(/^[1-9]\d{0,4}$/, 'must be a page number from 1'), v.transform(Number)),
  '1',
);
const SearchQuery = v.object({
  q: v.pipe(v.string('must be text'), v.trim(), v.minLength(1, 'is required'), v.maxLength(200, 'is too long')),
});
const SendoutsQuery = v.object({
  list: v.optional(v.picklist(SENDOUT_LISTS, 'must be waiting or failed'), 'waiting'),
  page,
});
const date = v.optional(v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')));
const FeesQuery = v.object({ from: date, to: date });
const AuditQuery = v.object({
  operator: v.optional(v.pipe(v.string(), v.regex(/^(usr_[0-9A-Za-z]{16}|cli)$/, 'must be a person id or cli'))),
  target: v.optional(v.pipe(v.string(), v.maxLength(64, 'is too long'))),
  action: v.optional(v.pipe(v.string(), v.regex(/^[a-z_.]{1,40}$/, 'must be an action name'))),
  page,
});

const PAGE_SIZE = 50;

/** The console's paths and the account action each names. */
const PERSON_ACTIONS: Record<string, AccountAction> = {
  ban: 'ban',
  suspend: 'suspend',
  reinstate: 'reinstate',
  'reset-two-factor': 'reset_two_factor',
  'end-sessions': 'end_sessions',
  'verify-address': 'verify_address',
};

/** The signed-in person's context with the request's id, which the audit rows keep. */
function operatorContext(c: Context<AppEnv>): PersonContext {
  const ctx = personContextOf(c);
  const requestId = currentRequestId();
  return requestId ? { ...ctx, requestId } : ctx;
}

/** Before any input is read: a visitor is asked to sign in, anyone but staff is refused. */
const staffOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  operatorOf(personContextOf(c), 'staff');
  await next();
};

function personRoutes(app: Hono<AppEnv>, { operators }: Services) {
  app
    .get('/people', validate('query', SearchQuery), async (c) =>
      c.json({ data: await operators.findPeople(operatorContext(c), { q: c.req.valid('query').q }) }),
    )
    .get('/people/:id', validate('param', PersonParam), async (c) =>
      c.json({ data: await operators.personFile(operatorContext(c), { publicId: c.req.valid('param').id }) }),
    );
  for (const [path, action] of Object.entries(PERSON_ACTIONS)) {
    app.post(`/people/:id/${path}`, validate('param', PersonParam), validate('json', ActionBody), async (c) => {
      const body = c.req.valid('json');
      const input = { publicId: c.req.valid('param').id, action, reason: body.reason, code: body.code };
      return c.json({ data: await operators.actOnPerson(operatorContext(c), input) });
    });
  }
  app.post(
    '/people/:id/verify-identity',
    validate('param', PersonParam),
    validate('json', VerifyIdentityBody),
    async (c) => {
      const { reason: why, code: given, full_name } = c.req.valid('json');
      const input = {
        publicId: c.req.valid('param').id,
        action: 'verify_identity' as const,
        reason: why,
        code: given,
        fullName: full_name,
      };
      return c.json({ data: await operators.actOnPerson(operatorContext(c), input) });
    },
  );
}

function moneyRoutes(app: Hono<AppEnv>, { operators }: Services) {
  app
    .get('/sendouts', validate('query', SendoutsQuery), async (c) => {
      const { list, page: number } = c.req.valid('query');
      const { items, hasMore } = await operators.listSendouts(operatorContext(c), {
        list,
        page: number,
        pageSize: PAGE_SIZE,
      });
      return c.json({ data: items, meta: { page: number, nextPageExist: hasMore } });
    })
    .post('/sendouts/:id/retry', validate('param', SendoutParam), validate('json', ActionBody), async (c) => {
      const input = { publicId: c.req.valid('param').id, action: 'retry' as const, ...c.req.valid('json') };
      return c.json({ data: await operators.actOnSendout(operatorContext(c), input) });
    })
    .post('/sendouts/:id/cancel', validate('param', SendoutParam), validate('json', ActionBody), async (c) => {
      const input = { publicId: c.req.valid('param').id, action: 'cancel' as const, ...c.req.valid('json') };
      return c.json({ data: await operators.actOnSendout(operatorContext(c), input) });
    })
    .post('/ledger/verify', async (c) => c.json({ data: await operators.verifyLedger(operatorContext(c)) }))
    .get('/ledger/verification', async (c) => c.json({ data: await operators.lastLedgerCheck(operatorContext(c)) }))
    .get('/fees', validate('query', FeesQuery), async (c) =>
      c.json({ data: await operators.feeIncome(operatorContext(c), c.req.valid('query')) }),
    );
}

export function operatorRoutes(services: Services) {
  const app = new Hono<AppEnv>();
  app.use('*', staffOnly);
  personRoutes(app, services);
  app.get('/trades/:id', validate('param', TradeParam), async (c) =>
    c.json({ data: await services.operators.lookUpTrade(operatorContext(c), { hash: c.req.valid('param').id }) }),
  );
  moneyRoutes(app, services);
  app.get('/audit', validate('query', AuditQuery), async (c) => {
    const { page: number, ...filter } = c.req.valid('query');
    const { items, hasMore } = await services.operators.auditLog(operatorContext(c), {
      ...filter,
      page: number,
      pageSize: PAGE_SIZE,
    });
    return c.json({ data: items, meta: { page: number, nextPageExist: hasMore } });
  });
  return app;
}
