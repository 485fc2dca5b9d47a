import { z } from 'astro/zod';
import { about, cookiePolicy, fees, legal, proofOfAddress, support } from './schema-info.ts';
import { home, levels, media, peerToPeerMap, testimonials, vendors } from './schema-landing.ts';

// The shape of every marketing page's content (src/content/<page>/<locale>.yaml), in one plain
// module: src/content.config.ts hands these schemas to Astro's collections, and
// scripts/check-content.ts validates the same files with them before Astro runs, so an editor's
// mistake fails `npm run check:content` and the build with the same words. Guide for editors:
// docs/editing-content.md.
//
// The building blocks are in schema-blocks.ts, the page schemas in schema-landing.ts and
// schema-info.ts.

export { brokenLinkReason, iconNames } from './schema-blocks.ts';

/** The pages and sections that have content, one folder each under src/content/. */
export const pageCollections = [
  'home',
  'testimonials',
  'vendors',
  'media',
  'peer-to-peer-map',
  'levels',
  'cookie-policy',
  'about',
  'fees',
  'terms',
  'privacy',
  'support',
  'proof-of-address',
] as const;
export type PageCollection = (typeof pageCollections)[number];

/**
 * The `{placeholders}` a text may hold, by collection and field (`*` for any list position): the
 * page fills them in. A text listed here must use exactly these; any other text may use none.
 */
export const placeholders: Partial<Record<PageCollection, Record<string, readonly string[]>>> = {
  testimonials: { dot: ['n'] },
  vendors: { 'price.caption': ['currency'], 'table.per': ['code'] },
  'peer-to-peer-map': { figure: ['cities', 'countries'] },
  levels: { level: ['n'], previous: ['n'], upTo: ['amount'] },
  'cookie-policy': { 'choice.text': ['name'] },
  fees: {
    'feeLabels.spread': ['percent'],
    'example.text': ['amount', 'percent', 'fee'],
    'affiliates.text': ['tier1', 'tier2', 'minimum'],
  },
};

/** The full entry of each page, as written in a language's file. */
export const pageSchemas = {
  home,
  testimonials,
  vendors,
  media,
  'peer-to-peer-map': peerToPeerMap,
  levels,
  'cookie-policy': cookiePolicy,
  about,
  fees,
  terms: legal,
  privacy: legal,
  support,
  'proof-of-address': proofOfAddress,
} satisfies Record<PageCollection, z.ZodType>;

/** A language that shows the English text of a page until it is translated: `fallback: en`. */
export const fallbackSchema = z.strictObject({ fallback: z.literal('en', { error: 'must be en' }) });

export type PageData<C extends PageCollection> = z.output<(typeof pageSchemas)[C]>;
