import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, clientInfo, personContextOf, signedIn } from '../http/auth.ts';
import { localizedMessage } from '../http/errors.ts';
import { requestLocale } from '../http/locale.ts';
import { decimalAmount as amount, requiredText as text, validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import { DISPUTE_REASONS } from '../services/trades/dispute-reasons.ts';
import { PAYMENT_DETAILS_MAX_LENGTH } from '../services/trades/payment-details.ts';

// Trades (spec section 7 "Trade"): POST /rest/v1/trade starts one; /rest/v1/trade/{id}/… moves it
// on; chat lines under /rest/v1/trade/{id}/messages (the spec leaves the path open,
// docs/decisions/062-trades-state-machine.md); the moderators' queue, decisions and taking a
// dispute under /rest/v1/moderation.

const flag = v.pipe(
  v.union([v.literal(0), v.literal(1), v.literal('0'), v.literal('1'), v.boolean()], 'must be 1 or 0'),
  v.transform((value) => (value === 1 || value === '1' || value === true ? 1 : 0) as 0 | 1),
);

const StartBody = v.object({
  offer_hash: v.pipe(text(32), v.regex(/^[0-9A-Za-z]{6,32}$/, 'must be an offer hash')),
  amount_btc: amount,
  amount_fiat: amount,
  gold_terms: v.optional(flag, 0),
  original_data: text(2000),
  // Checked by the service, which names what is missing or wrong (decision 112).
  payer_name: v.optional(v.pipe(v.string('must be text'), v.maxLength(200, 'must be at most 200 characters'))),
});
const IdParam = v.object({ id: v.pipe(v.string(), v.regex(/^[0-9A-Za-z]{6,32}$/, 'must be a trade id')) });
const ReleaseBody = v.object({ code: v.optional(v.pipe(v.string('must be text'), v.maxLength(64, 'is too long'))) });
const DisputeBody = v.object({
  dispute_reason_id: text(64),
  dispute_reason_text: text(2000),
});
const PaymentDetailsBody = v.object({ payment_details: text(PAYMENT_DETAILS_MAX_LENGTH) });
const MessageBody = v.object({
  text: v.pipe(v.string('must be text'), v.maxLength(4000, 'is too long')),
  is_for_moderator: v.optional(flag, 0),
});
const AfterQuery = v.object({
  after: v.optional(v.pipe(v.string(), v.regex(/^\d{1,12}$/, 'must be a message id'), v.transform(Number)), '0'),
});
const PageQuery = v.object({
  page: v.optional(
    v.pipe(v.string(), v.regex(/^[1-9]\d{0,4}$/, 'must be a page number from 1'), v.transform(Number)),
    '1',
  ),
});
const ResolveBody = v.object({ winner: v.picklist(['buyer', 'seller'], 'must be buyer or seller') });

type TradesService = Services['trades'];

export function tradesRoutes(services: Services, { trustProxy }: { trustProxy: boolean }) {
  const app = new Hono<AppEnv>()
    .get('/dispute/reasons', (c) => {
      const locale = requestLocale(c);
      return c.json({
        data: DISPUTE_REASONS.map((reason) => ({
          id: reason.id,
          title: localizedMessage(locale, reason.id, `trade_dispute_reason_${reason.id}`),
          roles: reason.roles,
        })),
      });
    })
    .use('/trade', signedIn)
    .use('/trade/*', signedIn)
    .use('/moderation/*', signedIn);
  lifecycleRoutes(app, services.trades, trustProxy);
  chatRoutes(app, services.trades);
  moderationRoutes(app, services.trades);
  return app;
}

/** Starting a trade, reading it and moving it on. */
function lifecycleRoutes(app: Hono<AppEnv>, trades: TradesService, trustProxy: boolean) {
  app
    .post('/trade', validate('json', StartBody), async (c) => {
      const trade = await trades.start(personContextOf(c), {
        ...c.req.valid('json'),
        locale: requestLocale(c),
        ip: clientInfo(c, trustProxy).ip,
      });
      return c.json({ data: trade }, 201);
    })
    .get('/trade/active', async (c) => {
      const { trades: list, alarmedTrades } = await trades.active(personContextOf(c));
      return c.json({ data: list, meta: { alarmedTrades } });
    })
    .get('/trade/:id', validate('param', IdParam), async (c) =>
      c.json({ data: await trades.get(personContextOf(c), { hash: c.req.valid('param').id }) }),
    )
    .post('/trade/:id/paid', validate('param', IdParam), async (c) =>
      c.json({ data: await trades.markPaid(personContextOf(c), { hash: c.req.valid('param').id }) }),
    )
    .post('/trade/:id/release', validate('param', IdParam), validate('json', ReleaseBody), async (c) =>
      c.json({
        data: await trades.release(personContextOf(c), {
          hash: c.req.valid('param').id,
          code: c.req.valid('json').code,
        }),
      }),
    )
    .post('/trade/:id/cancel', validate('param', IdParam), async (c) =>
      c.json({ data: await trades.cancel(personContextOf(c), { hash: c.req.valid('param').id }) }),
    )
    .post('/trade/:id/dispute', validate('param', IdParam), validate('json', DisputeBody), async (c) => {
      const body = c.req.valid('json');
      return c.json({
        data: await trades.openDispute(personContextOf(c), {
          hash: c.req.valid('param').id,
          reasonId: body.dispute_reason_id,
          text: body.dispute_reason_text,
        }),
      });
    })
    // The seller writes where to pay (decision 125); the spec's trade carries it as paymentDetails.
    .post('/trade/:id/payment-details', validate('param', IdParam), validate('json', PaymentDetailsBody), async (c) =>
      c.json({
        data: await trades.setPaymentDetails(personContextOf(c), {
          hash: c.req.valid('param').id,
          text: c.req.valid('json').payment_details,
        }),
      }),
    )
    // The page lost its live channel and polls instead: it learns where the trade stands now.
    .post('/trade/:id/fallback', validate('param', IdParam), async (c) => {
      const trade = await trades.get(personContextOf(c), { hash: c.req.valid('param').id });
      return c.json({ data: { status: trade.status, version: trade.version } });
    });
}

/** The trade's chat. */
function chatRoutes(app: Hono<AppEnv>, trades: TradesService) {
  app
    .get('/trade/:id/messages', validate('param', IdParam), validate('query', AfterQuery), async (c) =>
      c.json({
        data: await trades.messages(personContextOf(c), {
          hash: c.req.valid('param').id,
          after: c.req.valid('query').after,
        }),
      }),
    )
    .post('/trade/:id/messages', validate('param', IdParam), validate('json', MessageBody), async (c) => {
      const body = c.req.valid('json');
      const message = await trades.postMessage(personContextOf(c), {
        hash: c.req.valid('param').id,
        text: body.text,
        isForModerator: body.is_for_moderator === 1,
      });
      return c.json({ data: message }, 201);
    });
}

/** The moderators' queue and decisions. */
function moderationRoutes(app: Hono<AppEnv>, trades: TradesService) {
  app
    .get('/moderation/disputes', validate('query', PageQuery), async (c) => {
      const { trades: list, hasMore } = await trades.disputes(personContextOf(c), { page: c.req.valid('query').page });
      return c.json({ data: list, meta: { page: c.req.valid('query').page, nextPageExist: hasMore } });
    })
    .post('/moderation/trades/:id/resolve', validate('param', IdParam), validate('json', ResolveBody), async (c) =>
      c.json({
        data: await trades.resolve(personContextOf(c), {
          hash: c.req.valid('param').id,
          winner: c.req.valid('json').winner,
        }),
      }),
    )
    .post('/moderation/trades/:id/reopen', validate('param', IdParam), async (c) =>
      c.json({ data: await trades.reopen(personContextOf(c), { hash: c.req.valid('param').id }) }),
    )
    // A moderator takes an open dispute: theirs to decide within DISPUTE_DECISION_MINUTES (decision 154).
    .post('/moderation/trades/:id/take', validate('param', IdParam), async (c) =>
      c.json({ data: await trades.take(personContextOf(c), { hash: c.req.valid('param').id }) }),
    );
}
