import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_TAGS } from '../../db/seed/demo.ts';
import { TRANSITIONS } from '../../server/services/trades/state-machine.ts';
import { locales, localizePath, splitLocale } from '../../src/lib/shared/i18n/locales.ts';
import { interpolate } from '../../src/lib/shared/i18n/messages.ts';
import { OFFER_TAGS } from '../../src/lib/shared/offer-rules.ts';
import { TRADE_REQUIREMENT_KINDS } from '../../src/lib/shared/trade-requirements.ts';
import { TRADE_STATUSES } from '../../src/lib/shared/views/trades.ts';

const dir = join(import.meta.dirname, '../../locales');
const load = (locale: string) =>
  JSON.parse(readFileSync(join(dir, `${locale}.json`), 'utf8')) as Record<string, string>;
const en = load('en');
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message catalogues', () => {
  it('has exactly one file per supported language', () => {
    expect(
      readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => f.slice(0, -5))
        .sort(),
    ).toEqual([...locales].sort());
  });

  it('has English messages', () => {
    expect(Object.keys(en).length).toBeGreaterThan(50);
  });

  describe.each(locales.filter((l) => l !== 'en'))('%s', (locale) => {
    const catalogue = load(locale);

    it('has every key of en and no other', () => {
      const missing = Object.keys(en).filter((k) => !(k in catalogue));
      const extra = Object.keys(catalogue).filter((k) => !(k in en));
      expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    });

    it('keeps the placeholders of en in every message', () => {
      const wrong = Object.keys(en).filter(
        (k) => k in catalogue && placeholders(catalogue[k] ?? '').join() !== placeholders(en[k] ?? '').join(),
      );
      expect(wrong).toEqual([]);
    });

    it('has no empty messages', () => {
      expect(
        Object.entries(catalogue)
          .filter(([, v]) => !v.trim())
          .map(([k]) => k),
      ).toEqual([]);
    });
  });
});

describe('keys built from data', () => {
  it('names every offer tag a vendor may set, and the demo offers use only those', () => {
    for (const tag of OFFER_TAGS) expect(en[`offer.tag.${tag}`], tag).toBeTruthy();
    for (const tag of DEMO_TAGS) expect(OFFER_TAGS).toContain(tag);
  });

  it('names what the trade page builds keys from: statuses, chat lines, requirements', () => {
    const keys = [
      ...TRADE_STATUSES.map((status) => `trade.status.${status}`),
      // The system line of every status a trade reaches, and of the seller's payment details.
      ...['active_funded', ...TRANSITIONS.map((t) => t.to)].map((status) => `trade.system.${status}`),
      'trade.system.payment_details_added',
      'trade.system.payment_details_changed',
      ...TRADE_REQUIREMENT_KINDS.map((kind) => `trade.requirement.kind.${kind}`),
      ...['pending', 'uploaded', 'rejected'].map((status) => `trade.requirement.status.${status}`),
      ...['connecting', 'live', 'polling'].map((live) => `trade.chat.live.${live}`),
    ];
    expect(keys.filter((key) => !en[key])).toEqual([]);
  });
});

describe('locale paths', () => {
  it('omits the prefix for English and adds it for others', () => {
    expect(localizePath('en', '/vendors')).toBe('/vendors');
    expect(localizePath('de', '/vendors')).toBe('/de/vendors');
    expect(localizePath('de', '/')).toBe('/de/');
  });

  it('splits a path into locale and rest', () => {
    expect(splitLocale('/de/vendors')).toEqual({ locale: 'de', path: '/vendors' });
    expect(splitLocale('/de')).toEqual({ locale: 'de', path: '/' });
    expect(splitLocale('/vendors')).toEqual({ locale: 'en', path: '/vendors' });
    expect(splitLocale('/en/vendors')).toEqual({ locale: 'en', path: '/en/vendors' });
    expect(splitLocale('/xx/vendors')).toEqual({ locale: 'en', path: '/xx/vendors' });
  });

  it('interpolates placeholders and leaves unknown ones visible', () => {
    expect(interpolate('Hello {name}, {missing}', { name: 'Ada' })).toBe('Hello Ada, {missing}');
  });
});
