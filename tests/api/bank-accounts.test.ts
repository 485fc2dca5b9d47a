import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorOf } from '../support/api-errors.ts';
import { bankFixtures, IBANS, ROUTING } from '../support/bank-fixtures.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// Saved bank accounts over HTTP (issue 19; docs/bank-accounts.md): the three kinds and the fields
// each requires, every detail code of spec section 5, the owner-only rule, and the list.

type Person = Awaited<ReturnType<Awaited<ReturnType<typeof createUser>>['session']>>;

let t: TestApp;
let b: ReturnType<typeof bankFixtures>;
let owner: Person;
let other: Person;

beforeEach(async () => {
  t = await createTestApp();
  b = bankFixtures(t);
  owner = await (await createUser(t, { verified: 'phone' })).session();
  other = await (await createUser(t, { verified: 'phone' })).session();
});
afterEach(() => t?.close());

const send = (who: Person, method: string, path: string, json?: unknown) =>
  t.send(path, { method, headers: { cookie: who.cookie, 'x-csrf-token': csrfOf(who) }, json });
const csrfOf = (who: Person) => /XSRF-TOKEN=([^;]+)/.exec(who.cookie)?.[1] ?? '';

async function saved(who: Person, body: unknown) {
  const res = await who.post('/rest/v1/bankaccounts', body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()).data;
}
/** field → key of every detail of a 400. */
async function issuesOf(res: Response) {
  expect(res.status, await res.clone().text()).toBe(400);
  const error = await errorOf(res);
  expect(error.code).toBe('ERROR_INPUT_VALIDATION');
  return Object.fromEntries((error.details ?? []).map((d) => [d.field, d.key]));
}
const refused = async (body: unknown) => issuesOf(await owner.post('/rest/v1/bankaccounts', body));

describe('signed out', () => {
  it('answers 401 on every route', async () => {
    const id = 'bac_0000000000000000';
    for (const [method, path] of [
      ['GET', '/rest/v1/bankaccounts'],
      ['POST', '/rest/v1/bankaccounts'],
      ['GET', `/rest/v1/bankaccounts/${id}`],
      ['PUT', `/rest/v1/bankaccounts/${id}`],
      ['DELETE', `/rest/v1/bankaccounts/${id}`],
    ] as const) {
      expect((await t.send(path, { method, json: method === 'GET' ? undefined : {} })).status, path).toBe(401);
    }
  });
});

describe('IBAN accounts', () => {
  it('saves a German account, its bank and BIC taken from the IBAN', async () => {
    const account = await saved(owner, await b.ibanBody('de89 3704 0044 0532 0130 00'));
    expect(account).toMatchObject({
      id: expect.stringMatching(/^bac_[0-9A-Za-z]{16}$/),
      kind: 'iban',
      holderName: 'Erika Mustermann',
      isPersonal: true,
      country: { iso: 'DE', id: await b.countryId('DE') },
      fiatCurrency: { code: 'EUR' },
      iban: 'DE89 3704 0044 0532 0130 00',
      ibanMasked: 'DE89 ••••••••3000',
      accountNumber: null,
      routingNumber: null,
      bank: { id: 'DE-37040044', name: 'Commerzbank' },
      swiftCode: 'COBADEFFXXX',
      swift: null,
    });
  });

  it('saves accounts of France, Spain, the Netherlands and Britain with their banks', async () => {
    const cases: [string, string, string][] = [
      [IBANS.FR, 'EUR', 'La Banque Postale'],
      [IBANS.ES, 'EUR', 'CaixaBank'],
      [IBANS.NL, 'EUR', 'ABN AMRO'],
      [IBANS.GB, 'GBP', 'NatWest'],
    ];
    for (const [iban, currency, bank] of cases) {
      const account = await saved(owner, await b.ibanBody(iban, {}, currency));
      expect(account.bank?.name, iban).toBe(bank);
    }
  });

  it('refuses wrong checksums, wrong lengths, an IBAN of another country and a missing IBAN', async () => {
    expect(await refused(await b.ibanBody('DE89370400440532013001'))).toEqual({ 'sepa.iban': 'invalid_checksum' });
    expect(await refused(await b.ibanBody('ES9121000418450200051331'))).toEqual({ 'sepa.iban': 'invalid_checksum' });
    expect(await refused(await b.ibanBody('NL91ABNA041716430'))).toEqual({ 'sepa.iban': 'not_correct_length' });
    expect(await refused(await b.ibanBody(IBANS.FR, { country_id: await b.countryId('DE') }))).toEqual({
      'sepa.iban': 'iban_dont_math_country',
    });
    expect(await refused(await b.ibanBody('', {}))).toEqual({ 'sepa.iban': 'required' });
    expect(await refused(await b.ibanBody('not an iban'))).toEqual({ 'sepa.iban': 'invalid_format' });
  });

  it('checks a SWIFT/BIC code against the IBAN: format, country and bank', async () => {
    expect(await refused(await b.ibanBody(IBANS.DE, { swift_code: 'BNPAFRPP' }))).toEqual({
      swift_code: 'swift_dont_match_iban',
    });
    expect(await refused(await b.ibanBody(IBANS.DE, { swift_code: 'DEUTDEFF' }))).toEqual({
      swift_code: 'swift_dont_match_iban',
    });
    expect(await refused(await b.ibanBody(IBANS.DE, { swift_code: 'COBA' }))).toEqual({ swift_code: 'invalid_format' });
    const account = await saved(owner, await b.ibanBody(IBANS.DE, { swift_code: 'cobadeff' }));
    expect(account.swiftCode).toBe('COBADEFF');
  });

  it('names the same IBAN saved twice non_unique; another person may save it', async () => {
    await saved(owner, await b.ibanBody(IBANS.DE));
    expect(await refused(await b.ibanBody('DE89 3704 0044 0532 0130 00'))).toEqual({ 'sepa.iban': 'non_unique' });
    await saved(other, await b.ibanBody(IBANS.DE));
  });
});

describe('US accounts', () => {
  it('saves account and routing number, the bank named from the routing number', async () => {
    const account = await saved(owner, await b.usBody());
    expect(account).toMatchObject({
      kind: 'aba',
      accountNumber: '000123456789',
      accountNumberMasked: '••••••••6789',
      routingNumber: ROUTING.chase,
      iban: null,
      bank: { id: 'US-CHASUS33', name: 'JPMorgan Chase Bank' },
      swiftCode: 'CHASUS33',
    });
  });

  it('asks for the bank when the routing number is not one the directory knows', async () => {
    expect(await refused(await b.usBody({ routing_number: ROUTING.unknown }))).toEqual({
      bank_id: 'js.bank_transfers.bank_is_required',
    });
    expect(await refused(await b.usBody({ routing_number: ROUTING.unknown, bank_id: 'US-NOPEUS33' }))).toEqual({
      bank_id: 'not_exist',
    });
    expect(await refused(await b.usBody({ routing_number: ROUTING.unknown, bank_id: 'DE-37040044' }))).toEqual({
      bank_id: 'not_exist',
    });
    const account = await saved(owner, await b.usBody({ routing_number: ROUTING.unknown, bank_id: 'US-BOFAUS3N' }));
    expect(account.bank).toMatchObject({ name: 'Bank of America' });
  });

  it('gives every empty field its translation key at once', async () => {
    const res = await owner.post(
      '/rest/v1/bankaccounts',
      await b.usBody({ holder_name: '  ', account_number: '', routing_number: '' }),
    );
    expect(await issuesOf(res)).toEqual({
      holder_name: 'js.bank_transfers.error_empty_holder',
      account_number: 'js.bank_transfers.error_empty_account_number',
      routing_number: 'js.bank_transfers.error_empty_routing_number',
      bank_id: 'js.bank_transfers.bank_is_required',
    });
  });

  it('refuses a routing number with a wrong check digit or length, and a short account number', async () => {
    expect(await refused(await b.usBody({ routing_number: ROUTING.badChecksum, bank_id: 'US-CHASUS33' }))).toEqual({
      routing_number: 'invalid_checksum',
    });
    expect(await refused(await b.usBody({ routing_number: '0210000', bank_id: 'US-CHASUS33' }))).toEqual({
      routing_number: 'not_correct_length',
    });
    expect(await refused(await b.usBody({ account_number: '123' }))).toEqual({ account_number: 'not_correct_length' });
    expect(await refused(await b.usBody({ account_number: '12AB45' }))).toEqual({ account_number: 'invalid_format' });
  });

  it('names the same account and routing number saved twice non_unique', async () => {
    await saved(owner, await b.usBody());
    expect(await refused(await b.usBody({ account_number: '0001-2345-6789' }))).toEqual({
      account_number: 'non_unique',
    });
  });
});

describe('international (SWIFT) accounts', () => {
  it('saves account number, BIC and the address group', async () => {
    const account = await saved(owner, await b.swiftBody());
    expect(account).toMatchObject({
      kind: 'swift',
      accountNumber: '1234567',
      swiftCode: 'ROYCCAT2',
      isPersonal: false,
      bank: null,
      swift: { residency: 'Canada', state: 'ON', city: 'Toronto', zip: 'M5J 2J5', address: '200 Bay Street' },
    });
  });

  it('requires the BIC, city and address, and a BIC of the account country', async () => {
    expect(await refused(await b.swiftBody({ swift_code: '', swift: { city: '', address: '' } }))).toEqual({
      swift_code: 'required',
      'swift.city': 'required',
      'swift.address': 'required',
    });
    expect(await refused(await b.swiftBody({ swift_code: 'DEUTDEFF' }))).toEqual({
      swift_code: 'country_doesnt_match',
    });
    expect(await refused(await b.swiftBody({ swift_code: 'ROYC' }))).toEqual({ swift_code: 'invalid_format' });
  });
});

describe('country and currency', () => {
  it('refuses a currency of another country, and unknown countries and currencies', async () => {
    expect(await refused(await b.ibanBody(IBANS.DE, {}, 'USD'))).toEqual({ fiat_currency_id: 'country_doesnt_match' });
    expect(await refused(await b.ibanBody(IBANS.DE, { country_id: 999_999 }))).toEqual({ country_id: 'not_exist' });
    expect(await refused(await b.ibanBody(IBANS.DE, { fiat_currency_id: 999_999 }))).toEqual({
      fiat_currency_id: 'not_exist',
    });
    expect(await refused({ holder_name: 'A' })).toEqual({ country_id: 'required', fiat_currency_id: 'required' });
  });

  it("answers in the reader's language", async () => {
    const res = await owner.post(
      '/rest/v1/bankaccounts?locale=de',
      await b.ibanBody(IBANS.FR, {
        country_id: await b.countryId('DE'),
      }),
    );
    const error = await errorOf(res);
    expect(error.details?.[0]?.message).toBe('Diese IBAN gehört zu einem anderen Land als dem gewählten.');
  });
});

describe('reading, changing and deleting', () => {
  it("lists only the person's own accounts, newest first", async () => {
    const first = await saved(owner, await b.ibanBody(IBANS.DE));
    const second = await saved(owner, await b.usBody());
    await saved(other, await b.ibanBody(IBANS.FR));
    const list = (await (await owner.get('/rest/v1/bankaccounts')).json()).data;
    expect(list.map((a: { id: string }) => a.id)).toEqual([second.id, first.id]);
    const one = (await (await owner.get(`/rest/v1/bankaccounts/${first.id}`)).json()).data;
    expect(one).toEqual(first);
  });

  it('changes an account with the same payload, and keeps two of one person apart', async () => {
    const account = await saved(owner, await b.ibanBody(IBANS.DE));
    const another = await saved(owner, await b.ibanBody(IBANS.DE2));
    const res = await send(
      owner,
      'PUT',
      `/rest/v1/bankaccounts/${account.id}`,
      await b.ibanBody(IBANS.DE, {
        holder_name: 'Erika M. Mustermann',
        is_personal: false,
      }),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()).data).toMatchObject({
      id: account.id,
      holderName: 'Erika M. Mustermann',
      isPersonal: false,
    });
    const clash = await send(owner, 'PUT', `/rest/v1/bankaccounts/${another.id}`, await b.ibanBody(IBANS.DE));
    expect(await issuesOf(clash)).toEqual({ 'sepa.iban': 'non_unique' });
    const bad = await send(
      owner,
      'PUT',
      `/rest/v1/bankaccounts/${another.id}`,
      await b.ibanBody(IBANS.DE, { holder_name: '' }),
    );
    expect(await issuesOf(bad)).toEqual({ holder_name: 'js.bank_transfers.error_empty_holder' });
  });

  it("answers 404 for another person's account on GET, PUT and DELETE, and leaves it as it was", async () => {
    const account = await saved(owner, await b.ibanBody(IBANS.DE));
    const path = `/rest/v1/bankaccounts/${account.id}`;
    expect((await other.get(path)).status).toBe(404);
    expect((await send(other, 'PUT', path, await b.ibanBody(IBANS.DE, { holder_name: 'Mallory' }))).status).toBe(404);
    expect((await send(other, 'DELETE', path)).status).toBe(404);
    expect((await (await owner.get(path)).json()).data).toEqual(account);
  });

  it('deletes an account; then it is gone and may be saved again', async () => {
    const account = await saved(owner, await b.ibanBody(IBANS.DE));
    const path = `/rest/v1/bankaccounts/${account.id}`;
    const res = await send(owner, 'DELETE', path);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    expect((await owner.get(path)).status).toBe(404);
    expect((await send(owner, 'DELETE', path)).status).toBe(404);
    await saved(owner, await b.ibanBody(IBANS.DE));
  });

  it('refuses ids that are not account ids', async () => {
    expect((await owner.get('/rest/v1/bankaccounts/42')).status).toBe(400);
  });
});
