import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, personContextOf, signedIn } from '../http/auth.ts';
import { referenceId, validate, yesNo } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// Saved bank accounts (spec sections 3 "Bank account" and 7 "Bank accounts", issue 19;
// docs/bank-accounts.md), the owner's only:
//   GET    /rest/v1/bankaccounts             the person's accounts
//   POST   /rest/v1/bankaccounts             the spec's payload → 201 { data: account }
//   GET    /rest/v1/bankaccounts/{id}        one of them (someone else's id: 404)
//   PUT    /rest/v1/bankaccounts/{id}        the same payload
//   DELETE /rest/v1/bankaccounts/{id}        409 BANK_ACCOUNT_IN_TRADE while a running trade shows it
//   POST   /rest/v1/trade/{id}/bank-account  bank_account_id: the seller shows one in a bank-transfer trade
// The route checks only types and sizes; which fields an account needs, and the spec's detail
// codes, are the service's (server/services/bank-accounts/account-input.ts).

const accountId = v.pipe(
  v.string('must be a bank account id'),
  v.regex(/^bac_[0-9A-Za-z]{16}$/, 'must be a bank account id'),
);
/** Text that may be empty or left out (the service names what is missing), or null as "none". */
const field = (max: number) =>
  v.optional(
    v.pipe(
      v.nullable(v.union([v.string(), v.number()], 'must be text')),
      v.transform((value) => (value === null ? undefined : String(value))),
      v.check((value) => value === undefined || value.length <= max, `must be at most ${max} characters`),
    ),
  );

const AccountBody = v.object({
  fiat_currency_id: v.optional(referenceId),
  holder_name: field(200),
  is_personal: v.optional(yesNo),
  account_number: field(64),
  country_id: v.optional(referenceId),
  sepa: v.optional(v.nullable(v.object({ iban: field(64) }, 'must be { iban }')), undefined),
  routing_number: field(32),
  bank_id: field(40),
  swift_code: field(32),
  swift: v.optional(
    v.nullable(
      v.object(
        { residency: field(200), state: field(200), city: field(200), zip: field(40), address: field(400) },
        'must be { residency, state, city, zip, address }',
      ),
    ),
    undefined,
  ),
});
const AccountParam = v.object({ id: accountId });
const TradeParam = v.object({ id: v.pipe(v.string(), v.regex(/^[0-9A-Za-z]{6,32}$/, 'must be a trade id')) });
const ShareBody = v.object({ bank_account_id: accountId });

type AccountInput = v.InferOutput<typeof AccountBody>;
/** `null` groups read as left out. */
const payload = ({ sepa, swift, ...rest }: AccountInput) => ({
  ...rest,
  sepa: sepa ?? undefined,
  swift: swift ?? undefined,
});

export function bankAccountRoutes(services: Services) {
  const accounts = services.bankAccounts;
  return new Hono<AppEnv>()
    .use('/rest/v1/bankaccounts', signedIn)
    .use('/rest/v1/bankaccounts/*', signedIn)
    .use('/rest/v1/trade/:id/bank-account', signedIn)
    .get('/rest/v1/bankaccounts', async (c) => c.json({ data: await accounts.mine(personContextOf(c)) }))
    .post('/rest/v1/bankaccounts', validate('json', AccountBody), async (c) =>
      c.json({ data: await accounts.create(personContextOf(c), payload(c.req.valid('json'))) }, 201),
    )
    .get('/rest/v1/bankaccounts/:id', validate('param', AccountParam), async (c) =>
      c.json({ data: await accounts.one(personContextOf(c), { id: c.req.valid('param').id }) }),
    )
    .put('/rest/v1/bankaccounts/:id', validate('param', AccountParam), validate('json', AccountBody), async (c) =>
      c.json({
        data: await accounts.update(personContextOf(c), {
          ...payload(c.req.valid('json')),
          id: c.req.valid('param').id,
        }),
      }),
    )
    .delete('/rest/v1/bankaccounts/:id', validate('param', AccountParam), async (c) =>
      c.json(await accounts.remove(personContextOf(c), { id: c.req.valid('param').id })),
    )
    .post('/rest/v1/trade/:id/bank-account', validate('param', TradeParam), validate('json', ShareBody), async (c) =>
      c.json({
        data: await accounts.share(personContextOf(c), {
          hash: c.req.valid('param').id,
          bankAccountId: c.req.valid('json').bank_account_id,
        }),
      }),
    );
}
