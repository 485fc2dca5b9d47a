import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorOf } from '../support/api-errors.ts';
import { bankFixtures, IBANS, ROUTING } from '../support/bank-fixtures.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// The bank directory over HTTP (issue 19; docs/bank-accounts.md): banks per country, IBAN and
// routing-number lookups, every refusal with its detail code.

let t: TestApp;
let b: ReturnType<typeof bankFixtures>;
let person: Awaited<ReturnType<Awaited<ReturnType<typeof createUser>>['session']>>;

beforeEach(async () => {
  t = await createTestApp();
  b = bankFixtures(t);
  person = await (await createUser(t, { verified: 'phone' })).session();
});
afterEach(() => t?.close());

const dataOf = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()).data;
};
const detailOf = async (res: Response) => {
  expect(res.status).toBe(400);
  const error = await errorOf(res);
  expect(error.code).toBe('ERROR_INPUT_VALIDATION');
  return error.details?.[0];
};

describe('signed out', () => {
  it('answers 401 on every directory route', async () => {
    for (const path of [
      '/rest/v1/banks?country_id=1',
      `/rest/v1/banks/by-iban?iban=${IBANS.DE}`,
      `/rest/v1/banks/by-routing-number?routing_number=${ROUTING.chase}`,
    ]) {
      expect((await t.send(path)).status, path).toBe(401);
    }
  });
});

describe('GET /rest/v1/banks', () => {
  it('lists the curated banks of the US with their BICs', async () => {
    const banks = await dataOf(await person.get(`/rest/v1/banks?country_id=${await b.countryId('US')}`));
    expect(banks).toContainEqual({ id: 'US-CHASUS33', name: 'JPMorgan Chase Bank', bic: 'CHASUS33', countryIso: 'US' });
    expect(banks.length).toBeGreaterThan(10);
  });

  it("lists Germany's banks once per name, from the Bundesbank's data", async () => {
    const banks: { id: string; name: string }[] = await dataOf(
      await person.get(`/rest/v1/banks?country_id=${await b.countryId('DE')}`),
    );
    expect(banks.length).toBeGreaterThan(1000);
    expect(banks.filter((bank) => bank.name === 'Commerzbank')).toHaveLength(1);
    expect(new Set(banks.map((bank) => bank.name)).size).toBe(banks.length);
  });

  it('answers an empty list for a country without bank data, 404 for an unknown one, 400 without one', async () => {
    expect(await dataOf(await person.get(`/rest/v1/banks?country_id=${await b.countryId('CA')}`))).toEqual([]);
    const unknown = await person.get('/rest/v1/banks?country_id=999999');
    expect(unknown.status).toBe(404);
    expect((await person.get('/rest/v1/banks')).status).toBe(400);
    expect((await person.get('/rest/v1/banks?country_id=DE')).status).toBe(400);
  });
});

describe('GET /rest/v1/banks/by-iban', () => {
  const lookup = (iban: string) => person.get(`/rest/v1/banks/by-iban?iban=${encodeURIComponent(iban)}`);

  it('names the bank of IBANs of several countries', async () => {
    const cases: [string, string, string | null][] = [
      [IBANS.DE, 'Commerzbank', 'COBADEFFXXX'],
      [IBANS.FR, 'La Banque Postale', 'PSSTFRPPXXX'],
      [IBANS.ES, 'CaixaBank', 'CAIXESBB'],
      [IBANS.NL, 'ABN AMRO', 'ABNANL2A'],
      [IBANS.GB, 'NatWest', 'NWBKGB2L'],
    ];
    for (const [iban, name, bic] of cases) {
      const found = await dataOf(await lookup(iban));
      expect(found, iban).toMatchObject({
        iban,
        country: { iso: iban.slice(0, 2), id: await b.countryId(iban.slice(0, 2)) },
        bic,
        bank: { name },
      });
    }
  });

  it('reads IBANs as people type them and formats them in groups of four', async () => {
    const found = await dataOf(await lookup('de89 3704-0044 0532 0130 00'));
    expect(found).toMatchObject({
      iban: IBANS.DE,
      ibanFormatted: 'DE89 3704 0044 0532 0130 00',
      bankCode: '37040044',
      bank: { id: 'DE-37040044' },
    });
  });

  it('answers a valid IBAN of a bank it does not know without a bank', async () => {
    expect(await dataOf(await lookup(IBANS.BE))).toMatchObject({ country: { iso: 'BE' }, bank: null });
  });

  it('refuses a wrong checksum, a wrong length and what is no IBAN', async () => {
    expect(await detailOf(await lookup('DE89370400440532013001'))).toMatchObject({
      field: 'iban',
      key: 'invalid_checksum',
    });
    expect(await detailOf(await lookup('FR1420041010050500013M02607'))).toMatchObject({ key: 'invalid_checksum' });
    expect(await detailOf(await lookup('DE8937040044053201300'))).toMatchObject({ key: 'not_correct_length' });
    expect(await detailOf(await lookup('GB29NWBK6016133192681'))).toMatchObject({ key: 'not_correct_length' });
    expect(await detailOf(await lookup('XX89370400440532013000'))).toMatchObject({ key: 'invalid_format' });
    expect(await detailOf(await lookup('hello'))).toMatchObject({ key: 'invalid_format' });
  });
});

describe('GET /rest/v1/banks/by-routing-number', () => {
  const lookup = (value: string) => person.get(`/rest/v1/banks/by-routing-number?routing_number=${value}`);

  it('names the bank of a known routing number, and none for a valid unknown one', async () => {
    expect(await dataOf(await lookup(ROUTING.chase))).toEqual({
      routingNumber: ROUTING.chase,
      bank: { id: 'US-CHASUS33', name: 'JPMorgan Chase Bank', bic: 'CHASUS33', countryIso: 'US' },
    });
    expect(await dataOf(await lookup(ROUTING.unknown))).toEqual({ routingNumber: ROUTING.unknown, bank: null });
  });

  it('refuses a wrong check digit, a wrong length and letters', async () => {
    expect(await detailOf(await lookup(ROUTING.badChecksum))).toMatchObject({
      field: 'routing_number',
      key: 'invalid_checksum',
    });
    expect(await detailOf(await lookup('02100002'))).toMatchObject({ key: 'not_correct_length' });
    expect(await detailOf(await lookup('02100002A'))).toMatchObject({ key: 'invalid_format' });
  });
});
