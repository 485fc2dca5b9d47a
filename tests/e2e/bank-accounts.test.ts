import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations, serverAndBrowser } from './harness.ts';
import { browserPeople } from './people.ts';
import { overflowsSideways, screenshotter } from './screen-checks.ts';

// "Bank accounts" in Chromium (issue 19): the demo buyer, turned away while their phone is not
// verified, verifies it; then sees the field errors of an empty form and of a mistyped IBAN, saves
// a US account (the routing number names JPMorgan Chase) and a German SEPA account (the IBAN names
// Commerzbank), edits one and deletes one. Screenshots at 375 and 1440 px, light and dark, German
// and Hebrew, land in test-results/bank-accounts-*.png for a person to look at.

const live = serverAndBrowser();
const BUYER = 'buyer@example.com';

const { context, signedIn: signedInAs } = browserPeople(live);
const signedIn = (width: number, colorScheme: 'light' | 'dark' = 'light') => signedInAs(BUYER, width, { colorScheme });

/** The page, hydrated, with every console error and React warning it logs collected. */
async function open(ctx: BrowserContext, path: string): Promise<{ page: Page; problems: string[] }> {
  const page = await ctx.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    // A refused save or lookup is an answer the page shows; Chromium logs its 4xx status as an error too.
    if (/^Failed to load resource: .* status of 4\d\d/.test(message.text())) return;
    if (message.type() === 'error' || /hydrat/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(live.server.url + path);
  return { page, problems };
}

async function hydrated(page: Page) {
  await page.locator('astro-island:not([ssr])').first().waitFor({ state: 'attached' });
}

const shot = screenshotter('bank-accounts');

describe('bank accounts', () => {
  it('sends visitors who are not signed in to the sign-in page, which comes back', async () => {
    const ctx = await context(1440);
    const res = await ctx.request.get(`${live.server.url}/de/bank-accounts`, { maxRedirects: 0 });
    expect(res.status()).toBe(303);
    expect(res.headers().location).toBe(`/de/login?back=${encodeURIComponent('/de/bank-accounts')}`);
    await ctx.close();
  });

  it('tells a person without a verified phone why, with the way to settings, and shows no form', async () => {
    const ctx = await signedIn(375);
    const { page, problems } = await open(ctx, '/bank-accounts');
    const box = page.getByTestId('bank-accounts-not-eligible');
    expect(await box.textContent()).toContain('verify your phone number first');
    expect(await box.getByRole('link', { name: 'Verify your phone' }).getAttribute('href')).toBe('/settings#phone');
    expect(await page.getByTestId('bank-account-form').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'not-eligible-375');
    // Settings links the screen next to the gift cards.
    await page.goto(`${live.server.url}/settings`);
    expect(await page.getByTestId('settings-bank-accounts').getAttribute('href')).toBe('/bank-accounts');
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('adds a US and a German account with the banks filled in, after field errors; edits and deletes (1440 px)', async () => {
    live.server.sql(
      `INSERT INTO phones (user_id, number, verified_at, codes_sent_at)
       SELECT id, '+12025550148', ?, '[]' FROM users WHERE email = ?`,
      Date.now(),
      BUYER,
    );
    const ctx = await signedIn(1440);
    const { page, problems } = await open(ctx, '/bank-accounts');
    await hydrated(page);
    const accounts = page.getByTestId('bank-account-list').getByTestId('bank-account');
    await page.getByTestId('bank-accounts-empty').waitFor();
    const form = page.getByTestId('bank-account-form');
    // The buyer lives in the United States: the form starts there, in dollars.
    expect(await form.getByLabel('Country of the account').locator('option:checked').textContent()).toBe(
      'United States',
    );
    expect(await form.getByLabel('Currency').locator('option:checked').textContent()).toBe('USD');
    expect(await seriousViolations(page)).toEqual([]);

    // An empty form: each required field says what is missing, before anything is sent.
    await form.getByRole('button', { name: 'Save account' }).click();
    expect(await form.getByRole('alert').first().textContent()).toBe('Check the fields marked below.');
    await expectFieldError(form.getByLabel("Account holder's name"), "Enter the account holder's name.");
    await expectFieldError(form.getByLabel('Account number'), 'Enter the account number.');
    await expectFieldError(form.getByLabel('Routing number (ABA)'), 'Enter the routing number.');
    await shot(page, 'errors-1440');

    await form.getByLabel("Account holder's name").fill('Jane Buyer');
    expect(await form.getByLabel("Account holder's name").getAttribute('aria-invalid')).toBeNull();
    await form.getByLabel('Account number').fill('000123456789');
    await form.getByLabel('Routing number (ABA)').fill('021000021');
    await expect.poll(() => form.getByTestId('bank-name').textContent()).toContain('JPMorgan Chase');
    await form.getByRole('button', { name: 'Save account' }).click();
    await form.getByText('The account was saved.').waitFor();
    await expect.poll(() => accounts.count()).toBe(1);
    expect(await accounts.first().textContent()).toContain('JPMorgan Chase');
    expect(await accounts.first().textContent()).toContain('6789');
    expect(await accounts.first().textContent()).not.toContain('000123456789');

    // Germany: the IBAN takes the place of account and routing numbers; the currency is the euro.
    await form.getByLabel('Country of the account').selectOption({ label: 'Germany' });
    expect(await form.getByLabel('Currency').locator('option:checked').textContent()).toBe('EUR');
    expect(await form.getByLabel('Routing number (ABA)').count()).toBe(0);
    await form.getByLabel("Account holder's name").fill('Jane Buyer');
    const iban = form.getByLabel('IBAN');
    // One digit off: the lookup refuses it on the field as soon as it is complete.
    await iban.fill('DE89 3704 0044 0532 0130 01');
    await expectFieldError(iban, 'This number has a typo: its check digits are wrong.');
    await iban.fill('DE89 3704 0044 0532 0130 00');
    await expect.poll(() => form.getByTestId('bank-name').textContent()).toContain('Commerzbank');
    expect(await iban.getAttribute('aria-invalid')).toBeNull();
    await form.getByRole('button', { name: 'Save account' }).click();
    await form.getByText('The account was saved.').waitFor();
    await expect.poll(() => accounts.count()).toBe(2);
    expect(await accounts.first().textContent()).toContain('Commerzbank');
    expect(await accounts.first().textContent()).toContain('EUR');
    await shot(page, 'list-1440-light');

    // Edit the US account: the form fills with it, and saves in place.
    await page.getByRole('button', { name: /Edit account .*6789/ }).click();
    expect(await page.locator('#ba-form-title').textContent()).toBe('Edit the account');
    expect(await form.getByLabel('Account number').inputValue()).toBe('000123456789');
    await form.getByLabel("Account holder's name").fill('Jane Q. Buyer');
    await form.getByRole('radio', { name: 'Business' }).check();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await form.getByText('The changes were saved.').waitFor();
    expect(await accounts.count()).toBe(2);
    const edited = accounts.filter({ hasText: 'JPMorgan Chase' });
    expect(await edited.textContent()).toContain('Jane Q. Buyer');
    expect(await edited.textContent()).toContain('Business');

    // Delete the German one, after the question.
    const german = accounts.filter({ hasText: 'Commerzbank' });
    await german.getByRole('button', { name: /Delete account/ }).click();
    await german.getByRole('button', { name: 'Delete account', exact: true }).click();
    await page.getByText('The account was deleted.').waitFor();
    expect(await accounts.count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await ctx.close();
  });

  it('fits a phone and the dark theme, in German and in Hebrew, with no console error', async () => {
    const cases = [
      { width: 375, scheme: 'light', path: '/bank-accounts', name: '375-light' },
      { width: 375, scheme: 'dark', path: '/bank-accounts', name: '375-dark' },
      { width: 1440, scheme: 'dark', path: '/bank-accounts', name: '1440-dark' },
      { width: 1440, scheme: 'light', path: '/de/bank-accounts', name: 'de-1440' },
      { width: 375, scheme: 'light', path: '/de/bank-accounts', name: 'de-375' },
      { width: 375, scheme: 'light', path: '/he/bank-accounts', name: 'he-375' },
    ] as const;
    for (const { width, scheme, path, name } of cases) {
      const ctx = await signedIn(width, scheme);
      const { page, problems } = await open(ctx, path);
      await hydrated(page);
      await page.getByTestId('bank-account').first().waitFor();
      expect(await overflowsSideways(page), name).toBe(false);
      await shot(page, name);
      expect(problems, name).toEqual([]);
      await ctx.close();
    }
  });

  it('says in German which fields are missing (de)', async () => {
    const ctx = await signedIn(1440);
    const { page, problems } = await open(ctx, '/de/bank-accounts');
    await hydrated(page);
    const form = page.getByTestId('bank-account-form');
    // The list names the account's country in the reader's language too.
    expect(await page.getByTestId('bank-account').first().textContent()).toContain('Vereinigte Staaten');
    await form.getByLabel('Land des Kontos').selectOption({ label: 'Deutschland' });
    await form.getByRole('button', { name: 'Konto speichern' }).click();
    expect(await form.getByRole('alert').first().textContent()).toBe('Bitte prüfe die unten markierten Felder.');
    await expect.poll(() => form.getByLabel('IBAN').getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'de-errors-1440');
    await form.getByLabel('IBAN').fill('DE89370400440532013000');
    await expect.poll(() => form.getByTestId('bank-name').textContent()).toContain('Commerzbank');
    await shot(page, 'de-iban-1440');
    expect(problems).toEqual([]);
    await ctx.close();
  });
});

describe('a routing number the directory does not know', () => {
  it('asks for the bank, and says so when none is chosen', async () => {
    const ctx = await signedIn(375);
    const { page, problems } = await open(ctx, '/bank-accounts');
    await hydrated(page);
    const form = page.getByTestId('bank-account-form');
    await form.getByLabel("Account holder's name").fill('Jane Buyer');
    await form.getByLabel('Account number').fill('55501234');
    // A valid ABA checksum that no curated bank uses.
    await form.getByLabel('Routing number (ABA)').fill('123456780');
    const bank = form.getByLabel('Bank', { exact: true });
    await bank.waitFor();
    await form.getByRole('button', { name: 'Save account' }).click();
    await expectFieldError(bank, 'Choose the bank.');
    await bank.selectOption({ label: 'JPMorgan Chase Bank' });
    await form.getByRole('button', { name: 'Save account' }).click();
    await form.getByText('The account was saved.').waitFor();
    expect(await page.getByTestId('bank-account').first().textContent()).toContain('JPMorgan Chase Bank');
    expect(problems).toEqual([]);
    await ctx.close();
  });
});

/** The field is marked invalid and its described-by error line says `message`. */
async function expectFieldError(field: ReturnType<Page['getByLabel']>, message: string) {
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ');
  const errorId = ids.find((id) => id.endsWith('-error')) ?? '';
  await expect.poll(() => field.page().locator(`[id="${errorId}"]`).textContent()).toBe(message);
}
