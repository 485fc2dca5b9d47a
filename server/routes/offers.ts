import { type Context, Hono } from 'hono';
import * as v from 'valibot';
import type { Locale } from '../../src/lib/shared/i18n/locales.ts';
import { LISTING_SORTS } from '../../src/lib/shared/listing-sort.ts';
import { TRADE_REQUIREMENT_KINDS, TRADE_REQUIREMENT_STAGES } from '../../src/lib/shared/trade-requirements.ts';
import { type AppEnv, personContextOf, requestContext } from '../http/auth.ts';
import { localizedMessage } from '../http/errors.ts';
import { requestLocale } from '../http/locale.ts';
import { fieldIssues, validate, validationError } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import type { SearchInput } from '../services/offers/offers.ts';
import { BLOCK_MESSAGES, type StartBlock } from '../services/offers/start-gate.ts';

// Offers: the listing search of spec section 7 (GET /rest/v1/offers with its parameters) and the
// vendor's calls the spec does not show, in the same conventions (docs/decisions/046-offers-sides-prices-open-fields.md):
// POST /offers, GET|PUT|DELETE /offers/{hash}, POST /offers/{hash}/toggle, GET /users/{username}/offers.

const flag = v.optional(v.picklist(['0', '1'], 'must be 0 or 1'));
const slug = v.pipe(v.string(), v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a slug such as bank-transfer'));
const whole = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, 'must be a whole number'),
    v.transform(Number),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

const SearchQuery = v.object({
  type: v.optional(v.picklist(['buy', 'sell'], 'must be buy or sell'), 'buy'),
  'payment-method': v.optional(slug),
  currency: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code'))),
  'fiat-min': v.optional(v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/, 'must be an amount such as 250 or 99.50'))),
  group: v.optional(slug),
  visitor_country_iso: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code'))),
  visitor_country_has_changed: flag,
  location_id: v.optional(whole(1, 10_000_000)),
  is_payment_localized: flag,
  crypto_currency_id: v.optional(v.picklist(['1', '2'], 'must be 1 (BTC) or 2 (USDT)'), '1'),
  page: v.optional(whole(1, 10_000), '1'),
  relax: flag,
  // Ours (decision 133): the order inside each list; none keeps the contract's, by price.
  sort: v.optional(
    v.pipe(
      v.picklist(LISTING_SORTS, `must be one of ${LISTING_SORTS.join(', ')}`),
      v.description(
        'The order inside the featured list and the others (owners seen in the last two hours first in each): ' +
          'price (the default: cheapest first for type=buy, dearest first for type=sell), limit-min (smallest ' +
          'minimum first, in US dollars), limit-max (largest maximum first), reputation (net feedback, then ' +
          'completed trades) or last-seen (the owner seen most recently first); ties go by price.',
      ),
    ),
  ),
});

const amount = v.pipe(v.string('must be text'), v.maxLength(30, 'is too long'));
const bool = v.optional(v.boolean('must be true or false'));
const OfferBody = v.object({
  type: v.picklist(['buy', 'sell'], 'must be buy or sell'),
  crypto_currency_code: v.picklist(['BTC', 'USDT'], 'must be BTC or USDT'),
  currency: v.pipe(v.string('must be text'), v.regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code')),
  payment_method: v.pipe(v.string('must be text'), v.maxLength(100, 'is too long')),
  price_type: v.optional(v.picklist(['margin', 'fixed'], 'must be margin or fixed'), 'margin'),
  margin: v.optional(amount),
  fixed_price: v.optional(amount),
  fiat_min: amount,
  fiat_max: amount,
  predefined_amounts: v.optional(v.pipe(v.array(amount, 'must be a list of amounts'), v.maxLength(50, 'is too long'))),
  payment_window: v.optional(v.pipe(v.number('must be a number of minutes'), v.integer('must be whole minutes'))),
  payment_method_label: v.optional(v.string('must be text')),
  terms: v.optional(v.string('must be text')),
  trade_instructions: v.optional(v.string('must be text')),
  tags: v.optional(v.pipe(v.array(v.string(), 'must be a list of tags'), v.maxLength(20, 'is too long'))),
  trade_requirements: v.optional(
    v.pipe(
      v.array(
        v.object({
          kind: v.picklist(TRADE_REQUIREMENT_KINDS, `must be one of ${TRADE_REQUIREMENT_KINDS.join(', ')}`),
          stage: v.picklist(TRADE_REQUIREMENT_STAGES, 'must be before_reveal or before_paid'),
          optional: v.optional(v.boolean('must be true or false'), false),
        }),
        'must be a list of requirements',
      ),
      v.maxLength(20, 'is too long'),
    ),
  ),
  require_verified_id: bool,
  show_only_trusted_user: bool,
  bond_required: bool,
  require_offer_currency_match_buyer_country: bool,
  is_gold: bool,
  is_skip_warnings: bool,
  is_publicly_visible: bool,
  require_min_past_trades: v.optional(v.pipe(v.number('must be a number'), v.integer('must be a whole number'))),
  new_buyer_max_fiat: v.optional(v.nullable(amount)),
  allowed_countries: v.optional(
    v.pipe(v.array(v.string(), 'must be a list of country codes'), v.maxLength(300, 'is too long')),
  ),
  blocked_countries: v.optional(
    v.pipe(v.array(v.string(), 'must be a list of country codes'), v.maxLength(300, 'is too long')),
  ),
  location_id: v.optional(v.nullable(v.pipe(v.number('must be a location id'), v.integer('must be a location id')))),
});

const HashParam = v.object({ hash: v.pipe(v.string(), v.regex(/^[0-9A-Za-z]{6,32}$/, 'must be an offer hash')) });
const ToggleBody = v.object({ active: bool });

const blocksFor = (locale: Locale, blocks: StartBlock[]) =>
  blocks.map((block) => ({
    code: block.code,
    message: localizedMessage(locale, BLOCK_MESSAGES[block.code], `start_block_${block.code}`, block.params),
    ...(block.params ? { params: block.params } : {}),
  }));

/** The listing's query in the service's names. */
const searchInput = (q: v.InferOutput<typeof SearchQuery>, locale: Locale): SearchInput => ({
  type: q.type,
  cryptoCurrencyId: Number(q.crypto_currency_id),
  paymentMethod: q['payment-method'],
  currency: q.currency?.toUpperCase(),
  fiatMin: q['fiat-min'],
  group: q.group,
  visitorCountryIso: q.visitor_country_iso?.toUpperCase(),
  visitorCountryHasChanged: q.visitor_country_has_changed === '1',
  locationId: q.location_id,
  isPaymentLocalized: q.is_payment_localized === '1',
  page: q.page,
  relax: q.relax === '1',
  sort: q.sort,
  locale,
});

/** The body is optional: without one the offer flips. */
async function toggleActive(c: Context<AppEnv>): Promise<boolean | undefined> {
  const text = await c.req.text();
  if (!text.trim()) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = v.safeParse(ToggleBody, json);
  if (!parsed.success) throw validationError(fieldIssues(parsed.issues));
  return parsed.output.active;
}

export function offersRoutes(services: Services) {
  const { offers } = services;
  // A cached search comes back as the same object: serialize it once (75 KB for 50 offers), as
  // UTF-8 bytes, so no answer pays for encoding the string again (a quarter of the server's time
  // under load was that encoding; docs/decisions/061-cached-answers-as-bytes.md).
  const serialized = new WeakMap<object, Uint8Array>();

  return new Hono<AppEnv>()
    .get('/offers', validate('query', SearchQuery), async (c) => {
      const result = await offers.search(requestContext(c), searchInput(c.req.valid('query'), requestLocale(c)));
      let body = serialized.get(result);
      if (body === undefined) {
        body = Buffer.from(JSON.stringify({ data: result.offers, meta: result.meta }));
        serialized.set(result, body);
      }
      return c.body(body as Uint8Array<ArrayBuffer>, 200, { 'Content-Type': 'application/json; charset=UTF-8' });
    })
    .post('/offers', validate('json', OfferBody), async (c) => {
      const offer = await offers.create(personContextOf(c), { offer: c.req.valid('json'), locale: requestLocale(c) });
      return c.json({ data: offer }, 201);
    })
    .get(
      '/offers/:hash',
      validate('param', HashParam),
      validate('query', v.object({ visitor_country_iso: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z]{2}$/))) })),
      async (c) => {
        const locale = requestLocale(c);
        const { offer, blocks, step, isOwner, limits } = await offers.get(requestContext(c), {
          hash: c.req.valid('param').hash,
          locale,
          visitorCountryIso: c.req.valid('query').visitor_country_iso?.toUpperCase(),
        });
        return c.json({
          data: offer,
          meta: { canStartTrade: blocks.length === 0, blocks: blocksFor(locale, blocks), step, isOwner, limits },
        });
      },
    )
    .put('/offers/:hash', validate('param', HashParam), validate('json', OfferBody), async (c) => {
      const data = await offers.update(personContextOf(c), {
        hash: c.req.valid('param').hash,
        offer: c.req.valid('json'),
        locale: requestLocale(c),
      });
      return c.json({ data });
    })
    .post('/offers/:hash/toggle', validate('param', HashParam), async (c) => {
      const ctx = personContextOf(c);
      const active = await toggleActive(c);
      const data = await offers.toggle(ctx, {
        hash: c.req.valid('param').hash,
        locale: requestLocale(c),
        ...(active === undefined ? {} : { active }),
      });
      return c.json({ data });
    })
    .delete('/offers/:hash', validate('param', HashParam), async (c) => {
      await offers.remove(personContextOf(c), { hash: c.req.valid('param').hash });
      return c.json({ data: { deleted: true } });
    })
    .get(
      '/users/:username/offers',
      validate(
        'param',
        v.object({ username: v.pipe(v.string(), v.regex(/^[A-Za-z0-9]{1,40}$/, 'must be a username')) }),
      ),
      async (c) =>
        c.json({
          data: await offers.listForUser(requestContext(c), {
            username: c.req.valid('param').username,
            locale: requestLocale(c),
          }),
        }),
    );
}
