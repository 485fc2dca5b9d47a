import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'astro/zod';
import { parseListingUrl } from '../lib/offer-listing-url.ts';
import { locales } from '../lib/shared/i18n/locales.ts';

// The shape of every marketing page's content (src/content/<page>/<locale>.yaml), in one plain
// module: src/content.config.ts hands these schemas to Astro's collections, and
// scripts/check-content.ts validates the same files with them before Astro runs, so an editor's
// mistake fails `npm run check:content` and the build with the same words. Guide for editors:
// docs/editing-content.md.

const root = join(import.meta.dirname, '..', '..');

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
  fees: { 'feeLabels.spread': ['percent'], 'example.text': ['amount', 'percent', 'fee'] },
};

// ---------------------------------------------------------------------------------------------
// Routes and files a link may point at.

/** `src/pages/[...locale]/about.astro` → ['about']; `[market]/index.astro` → ['[market]']. */
function pageRoutes(): string[][] {
  const base = join(root, 'src', 'pages', '[...locale]');
  const routes: string[][] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.astro')) {
        const segments = relative(base, path).slice(0, -'.astro'.length).split('/');
        if (segments.at(-1) === 'index') segments.pop();
        routes.push(segments);
      }
    }
  };
  walk(base);
  return routes;
}

const routes = pageRoutes();

/**
 * Why a link written in content does not lead to a page of this site, or undefined when it does.
 * Links are written without the language (`/fees`); the page adds it (`/de/fees`).
 */
export function brokenLinkReason(href: string): string | undefined {
  if (!href.startsWith('/') || href.startsWith('//')) return 'must start with / (a page of this site, such as /fees)';
  const path = href.replace(/[?#].*$/, '');
  const segments = path.split('/').filter(Boolean);
  if (segments[0] && (locales as readonly string[]).includes(segments[0])) {
    return `write the page without the language (/${segments.slice(1).join('/')}): each language adds its own`;
  }
  if (path.includes('.') && existsSync(join(root, 'public', path))) return undefined;
  const fits = (route: string[], dynamic: boolean) =>
    route.length === segments.length &&
    route.every((part, i) => part === segments[i] || (dynamic && part.startsWith('[')));
  if (routes.some((route) => fits(route, false))) return undefined;
  // Listings (/buy-bitcoin/sepa/eur) are checked by their own parser; other dynamic pages
  // (/calculator/btc-to-eur, /offers/…) accept any value in their dynamic part.
  if (routes.some((route) => route[0] !== '[market]' && fits(route, true))) return undefined;
  if (parseListingUrl(href.replace(/#.*$/, ''))) return undefined;
  return `no page at ${path} (is it spelled right?)`;
}

/** The icons src/components/Icon.astro draws, read from its source. */
export const iconNames: readonly string[] = (() => {
  const source = readFileSync(join(root, 'src', 'components', 'Icon.astro'), 'utf8');
  const block = /const paths = \{([\s\S]*?)\n\}/.exec(source)?.[1] ?? '';
  const names = [...block.matchAll(/^ {2}'?([a-zA-Z-]+)'?:/gm)].map((m) => m[1] as string);
  if (names.length < 10) throw new Error('src/content/schema.ts: could not read the icon names from Icon.astro');
  return names;
})();

// ---------------------------------------------------------------------------------------------
// Building blocks.

/** A piece of text that must be there and not be blank. */
const text = () => z.string().trim().min(1, 'is empty: write the text or remove the field');

/** A link to a page of this site, written without the language: `/fees`, `/peer-to-peer-map#levels`. */
const pageLink = () =>
  z
    .string()
    .trim()
    .superRefine((href, ctx) => {
      const reason = brokenLinkReason(href);
      if (reason) ctx.addIssue({ code: 'custom', message: `broken link "${href}": ${reason}` });
    });

/** A link to another website. */
const externalLink = () =>
  z
    .string()
    .trim()
    .regex(/^https:\/\/[^\s/]+\.[^\s/]+/, 'must be a full address starting with https://');

const icon = () =>
  z.string().refine((name) => iconNames.includes(name), {
    message: `unknown icon; use one of: ${iconNames.join(', ')}`,
  });

/**
 * An image: a file under public/ (`/press/photo.jpg`) and the text a screen reader says instead,
 * which is required (describe what the picture shows; never leave it out).
 */
const image = () =>
  z.strictObject({
    src: z
      .string()
      .trim()
      .refine((src) => src.startsWith('/') && !src.includes('..') && existsSync(join(root, 'public', src)), {
        message: 'must be a file under public/, written from the slash: /press/photo.jpg',
      }),
    alt: z
      .string({ error: 'is missing: every image needs alt text that says what it shows' })
      .trim()
      .min(1, 'is empty: every image needs alt text that says what it shows'),
  });

/** A day, written 2026-10-14 (quoted or not: YAML reads an unquoted date as a date). */
const day = () =>
  z
    .union([z.date(), z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written as 2026-10-14')])
    .transform((value, ctx) => {
      const date = typeof value === 'string' ? new Date(`${value}T00:00:00Z`) : value;
      if (Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: 'custom', message: 'is not a real date (written as 2026-10-14)' });
        return z.NEVER;
      }
      return date.toISOString().slice(0, 10);
    });

/** A button or link: what it says and which page it opens. */
const cta = () => z.strictObject({ label: text(), href: pageLink() });

/** Eyebrow (small line above), heading and intro of a page section. */
const sectionHead = { eyebrow: text(), title: text() };

/** A card with an icon, a heading and a paragraph (steps, reasons, values). */
const card = () => z.strictObject({ icon: icon(), title: text(), text: text() });

/** Title and description: the browser tab and search results. */
const meta = { title: text(), description: text() };

/** The closing band: heading, text and two buttons. */
const ctaBand = () => z.strictObject({ title: text(), text: text(), primary: cta(), secondary: cta() });

// ---------------------------------------------------------------------------------------------
// One schema per page.

const home = z.strictObject({
  ...meta,
  hero: z.strictObject({
    eyebrow: text(),
    title: text(),
    text: text(),
    primary: cta(),
    secondary: cta(),
    trust: z.array(z.strictObject({ icon: icon(), text: text() })).min(1),
  }),
  search: z.strictObject({
    title: text(),
    amount: text(),
    currency: text(),
    method: text(),
    anyMethod: text(),
    hint: text(),
  }),
  stats: z.strictObject({
    label: text(),
    methods: text(),
    languages: text(),
    buyerFees: text(),
    escrow: text(),
  }),
  steps: z.strictObject({
    ...sectionHead,
    text: text(),
    items: z.array(card()).min(1),
    dispute: text(),
  }),
  methods: z.strictObject({
    ...sectionHead,
    text: text(),
    tabsLabel: text(),
    popular: text(),
    browse: text(),
  }),
  converter: z.strictObject({ ...sectionHead, text: text() }),
  cta: ctaBand(),
});

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

const testimonials = z.strictObject({
  ...sectionHead,
  previous: text(),
  next: text(),
  /** "Show testimonial {n}": the slider's dots. */
  dot: text(),
  items: z
    .array(
      z.strictObject({
        name: text(),
        /** Two-letter country code (NG, BR…): the page names the country in the reader's language. */
        country: z
          .string()
          .regex(/^[A-Z]{2}$/, 'must be a two-letter country code in capitals, such as NG or BR')
          // Zod runs this after a failed pattern too: only well-formed codes are looked up.
          .refine((code) => !/^[A-Z]{2}$/.test(code) || regionNames.of(code) !== undefined, {
            message: 'is not a country code (NG, BR, IN, GB…)',
          }),
        quote: text(),
        photo: image().optional(),
      }),
    )
    .min(1),
});

const vendors = z.strictObject({
  ...meta,
  hero: z.strictObject({
    eyebrow: text(),
    title: text(),
    text: text(),
    /** The sign-up button: it opens registration as a vendor (the page sets its address). */
    start: text(),
    secondary: cta(),
  }),
  price: z.strictObject({ title: text(), caption: text() }),
  widgets: z.strictObject({ loading: text(), unavailable: text(), retry: text() }),
  why: z.strictObject({ ...sectionHead, items: z.array(card()).min(1) }),
  fees: z.strictObject({
    ...sectionHead,
    text: text(),
    link: cta(),
    bank: text(),
    gift: text(),
    buyers: text(),
  }),
  steps: z.strictObject({ ...sectionHead, items: z.array(card()).min(1) }),
  market: z.strictObject({ ...sectionHead, text: text() }),
  chart: z.strictObject({ title: text(), currency: text(), high: text(), low: text(), change: text() }),
  table: z.strictObject({ title: text(), currency: text(), per: text() }),
  cta: z.strictObject({ title: text(), text: text(), start: text(), secondary: cta() }),
});

const media = z.strictObject({
  ...meta,
  hero: z.strictObject({ title: text(), text: text() }),
  mentions: z.strictObject({
    title: text(),
    items: z
      .array(
        z.strictObject({
          outlet: text(),
          date: day(),
          url: externalLink(),
          headline: text(),
        }),
      )
      .min(1),
  }),
  kit: z.strictObject({
    title: text(),
    text: text(),
    logoLight: text(),
    logoDark: text(),
    download: text(),
    colors: text(),
    ink: text(),
    green: text(),
  }),
  facts: z.strictObject({
    title: text(),
    assets: text(),
    assetsValue: text(),
    methods: text(),
    languages: text(),
    licence: text(),
    licenceValue: text(),
  }),
  about: z.strictObject({ title: text(), text: text() }),
  contact: z.strictObject({ title: text(), text: text() }),
});

const peerToPeerMap = z.strictObject({
  ...meta,
  hero: z.strictObject({ eyebrow: text(), title: text(), text: text() }),
  figure: text(),
  stats: z.strictObject({ cities: text(), countries: text() }),
  top: z.strictObject({ title: text() }),
  cta: ctaBand(),
});

const levels = z.strictObject({
  ...sectionHead,
  text: text(),
  tabsLabel: text(),
  /** "Level {n}". */
  level: text(),
  requirements: text(),
  /** "Trading limit (30 days)": the heading over each level's limit. */
  limit: text(),
  /** "Everything in level {n}": the first requirement of every level after the first. */
  previous: text(),
  /** "Up to {amount} per 30 days": the page fills in the limit from src/lib/shared/verification-rules.ts. */
  upTo: text(),
  /** The words of the link to the verification page (/verification), under the levels. */
  verify: text(),
  /**
   * One item per level of the verification ladder, level 1 first (scripts/check-content.ts counts
   * them against MAX_LEVEL). The limits are not written here: they come from the code.
   */
  items: z
    .array(
      z.strictObject({
        name: text(),
        icon: icon(),
        summary: text(),
        requirements: z.array(text()).min(1),
      }),
    )
    .min(1),
});

const cookiePolicy = z.strictObject({
  ...meta,
  intro: text(),
  categories: z.strictObject({ title: text(), text: text() }),
  /** `{name}` is the name of the cookie that keeps the choice. */
  choice: z.strictObject({ title: text(), text: text(), nojs: text() }),
  effects: z.strictObject({ title: text(), text: text() }),
  thirdParty: z.strictObject({ title: text(), text: text() }),
});

const about = z.strictObject({
  ...meta,
  hero: z.strictObject({ title: text(), text: text() }),
  mission: z.strictObject({ title: text(), text: text() }),
  values: z.strictObject({ title: text(), items: z.array(card()).min(1) }),
  cta: ctaBand(),
});

const feeKinds = [
  'free',
  'network',
  'spread',
  ...[
    'bank-transfers',
    'online-transfers',
    'gift-cards',
    'cash-deposits',
    'debitcredit-cards',
    'digital-currencies',
  ].map((group) => `escrow:${group}`),
] as const;

const fees = z.strictObject({
  ...meta,
  hero: z.strictObject({ title: text(), text: text() }),
  table: z.strictObject({ caption: text(), activity: text(), fee: text(), details: text() }),
  /** What the fee column says for `free`, `network` and `spread` ("{percent} spread"). */
  feeLabels: z.strictObject({ free: text(), network: text(), spread: text() }),
  rows: z
    .array(
      z.strictObject({
        icon: icon(),
        label: text(),
        details: text(),
        /** Which fee the row shows, from src/lib/shared/fees.ts: free, network, spread or escrow:<payment group>. */
        fee: z.enum(feeKinds, { error: `must be one of: ${feeKinds.join(', ')}` }),
      }),
    )
    .min(1),
  example: z.strictObject({ title: text(), text: text() }),
  cancel: text(),
  cta: ctaBand(),
});

const legal = z.strictObject({
  ...meta,
  intro: text(),
  sections: z
    .array(
      z.strictObject({
        /** The section's address on the page (#eligibility): small letters and dashes. */
        id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be small letters, digits and dashes, such as fees'),
        title: text(),
        text: text(),
        link: cta().optional(),
      }),
    )
    .min(1),
});

const support = z.strictObject({
  ...meta,
  hero: z.strictObject({ title: text(), text: text() }),
  faq: z.strictObject({
    title: text(),
    items: z.array(z.strictObject({ question: text(), answer: text() })).min(1),
  }),
  contact: z.strictObject({ title: text(), trade: text(), email: text() }),
  links: z.array(z.strictObject({ icon: icon(), label: text(), href: pageLink() })).min(1),
});

const proofOfAddress = z.strictObject({
  ...meta,
  intro: text(),
  accepted: z.strictObject({
    title: text(),
    items: z.array(z.strictObject({ title: text(), text: text(), image: image() })).min(1),
  }),
  rules: z.strictObject({ title: text(), items: z.array(text()).min(1) }),
  rejected: z.strictObject({ title: text(), items: z.array(text()).min(1) }),
});

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
