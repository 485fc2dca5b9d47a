import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, personContextOf, signedIn } from '../http/auth.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';

// The bank directory (spec section 7 "Bank accounts"; docs/bank-accounts.md), for the bank
// account form of a signed-in person:
//   GET /rest/v1/banks?country_id=                          the banks of a country (countries table id)
//   GET /rest/v1/banks/by-iban?iban=                        a valid IBAN's country, bank code, BIC and bank
//   GET /rest/v1/banks/by-routing-number?routing_number=    a valid ABA routing number's bank, if known

const CountryQuery = v.object({
  country_id: v.pipe(
    v.string('must be a country id'),
    v.regex(/^\d{1,9}$/, 'must be a country id'),
    v.transform(Number),
    v.minValue(1, 'must be a country id'),
  ),
});
const IbanQuery = v.object({ iban: v.pipe(v.string('must be text'), v.maxLength(64, 'is too long')) });
const RoutingQuery = v.object({
  routing_number: v.pipe(v.string('must be text'), v.maxLength(32, 'is too long')),
});

export function bankRoutes(services: Services) {
  return new Hono<AppEnv>()
    .use('/rest/v1/banks', signedIn)
    .use('/rest/v1/banks/*', signedIn)
    .get('/rest/v1/banks', validate('query', CountryQuery), async (c) =>
      c.json({
        data: await services.banks.list(personContextOf(c), { countryId: c.req.valid('query').country_id }),
      }),
    )
    .get('/rest/v1/banks/by-iban', validate('query', IbanQuery), async (c) =>
      c.json({ data: await services.banks.byIban(personContextOf(c), { iban: c.req.valid('query').iban }) }),
    )
    .get('/rest/v1/banks/by-routing-number', validate('query', RoutingQuery), async (c) =>
      c.json({
        data: services.banks.byRoutingNumber(personContextOf(c), {
          routingNumber: c.req.valid('query').routing_number,
        }),
      }),
    );
}
