import { afterAll, describe, expect, it } from 'vitest';
import { paymentMethods as seededMethods } from '../../db/seed/data/payment-methods.ts';
import { DEFAULT_PAYMENT_GROUP_ID } from '../../src/lib/shared/offer-rules.ts';
import { createTestApp } from '../support/test-app.ts';

// GET /rest/v1/payment-methods: the groups with their methods that the create-offer form picks
// from (spec section 3 "Payment method" and "Payment group" fields, section 9 selectable groups).

const t = await createTestApp();
afterAll(() => t.close());

interface Method {
  id: number;
  name: string;
  originalName: string;
  slug: string;
  description_short: string;
  payment_method_group_id: number;
  groupId: number;
  isCopyrighted: boolean;
  warningText: string | null;
}
interface Group {
  id: number;
  name: string;
  slug: string;
  description: string;
  sell_description: string;
  imageUrl: string | null;
  popular_payment_methods: string[];
  isSelectable: boolean;
  methods: Method[];
}

async function groups(query = '', init?: RequestInit): Promise<Group[]> {
  const res = await t.send(`/rest/v1/payment-methods${query}`, init);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toContain('no-store');
  return ((await res.json()) as { data: Group[] }).data;
}

describe('GET /rest/v1/payment-methods', () => {
  it('lists every group with the fields of spec section 3, selectable ones marked', async () => {
    const list = await groups();
    expect(list.map((g) => g.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(list.filter((g) => g.isSelectable).map((g) => g.slug)).toEqual([
      'bank-transfers',
      'cash-deposits',
      'debitcredit-cards',
      'digital-currencies',
      'gift-cards',
      'online-transfers',
    ]);
    const gifts = list.find((g) => g.id === DEFAULT_PAYMENT_GROUP_ID);
    expect(gifts).toMatchObject({
      slug: 'gift-cards',
      name: 'Gift cards',
      imageUrl: null,
      description: expect.stringContaining('gift card'),
      sell_description: expect.stringContaining('gift card'),
    });
    const cash = list.find((g) => g.slug === 'cash-in-person');
    expect(cash?.isSelectable).toBe(false);
    expect(cash?.methods.map((m) => m.slug)).toContain('cash-in-person');
  });

  it('carries every seeded method once, in its group, with both group id fields', async () => {
    const list = await groups();
    const all = list.flatMap((g) => g.methods);
    expect(all).toHaveLength(seededMethods.length);
    expect(new Set(all.map((m) => m.slug)).size).toBe(seededMethods.length);
    for (const group of list) {
      for (const method of group.methods) {
        expect(method.groupId).toBe(group.id);
        expect(method.payment_method_group_id).toBe(group.id);
      }
    }
    const westernUnion = all.find((m) => m.slug === 'western-union');
    expect(westernUnion).toMatchObject({
      name: 'Western Union',
      originalName: 'Western Union',
      isCopyrighted: true,
      warningText: expect.stringContaining('scams'),
      description_short: expect.stringContaining('Western Union'),
    });
    expect(all.find((m) => m.slug === 'bank-transfer')?.warningText).toBeNull();
    // Seed order inside a group: the best-known method first.
    expect(list[0]?.methods[0]?.slug).toBe('bank-transfer');
  });

  it('names as popular the methods of the group that most countries list, at most five', async () => {
    const list = await groups();
    const bank = list.find((g) => g.slug === 'bank-transfers');
    expect(bank?.popular_payment_methods[0]).toBe('bank-transfer');
    for (const group of list) {
      expect(group.popular_payment_methods.length).toBeLessThanOrEqual(5);
      const own = new Set(group.methods.map((m) => m.slug));
      for (const slug of group.popular_payment_methods) expect(own.has(slug)).toBe(true);
    }
    expect(list.find((g) => g.slug === 'cash-in-person')?.popular_payment_methods).toEqual(['cash-in-person']);
  });

  it('names the groups in the reader language and keeps brand names of methods', async () => {
    const de = await groups('?locale=de');
    const en = await groups();
    const deGifts = de.find((g) => g.slug === 'gift-cards');
    expect(deGifts?.name).not.toBe(en.find((g) => g.slug === 'gift-cards')?.name);
    expect(deGifts?.name.length).toBeGreaterThan(0);
    expect(de.flatMap((g) => g.methods).map((m) => m.name)).toEqual(en.flatMap((g) => g.methods).map((m) => m.name));
    const viaHeader = await groups('', { headers: { 'accept-language': 'de-DE, de;q=0.9' } });
    expect(viaHeader.find((g) => g.slug === 'gift-cards')?.name).toBe(deGifts?.name);
    // The two groups outside search have catalogue names too (the public statistics name them).
    expect(de.find((g) => g.slug === 'cash-in-person')?.name).toBe('Bargeld bei persönlichem Treffen');
  });

  it('falls back to English for a language it does not support', async () => {
    const res = await t.send('/rest/v1/payment-methods?locale=xx');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: Group[] };
    expect(body.data.find((g) => g.id === 5)?.name).toBe('Gift cards');
  });

  it('answers only GET', async () => {
    const res = await t.send('/rest/v1/payment-methods', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe('NOT_FOUND');
  });
});
