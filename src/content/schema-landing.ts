import { z } from 'astro/zod';
import { card, cta, ctaBand, day, externalLink, icon, image, meta, sectionHead, text } from './schema-blocks.ts';

// The schemas of the landing pages: home, testimonials, vendors, media, the map and the levels.

export const home = z.strictObject({
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

export const testimonials = z.strictObject({
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

export const vendors = z.strictObject({
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

/** An article's address: a real site, never a reserved name (`.example`, `example.com`, `.test`, `.invalid`, `.localhost`). */
const realLink = () =>
  externalLink().refine(
    (url) =>
      !/(?:^|\.)(?:example|test|invalid|localhost)$|(?:^|\.)example\.(?:com|net|org)$/i.test(new URL(url).hostname),
    {
      message: 'must be the address of a real article, not a reserved example domain',
    },
  );

export const media = z.strictObject({
  ...meta,
  hero: z.strictObject({ title: text(), text: text() }),
  /** Press coverage that exists: `text` says so while `items` is empty (decision 130). */
  coverage: z.strictObject({
    title: text(),
    text: text(),
    items: z
      .array(
        z.strictObject({
          outlet: text(),
          date: day(),
          url: realLink(),
          headline: text(),
        }),
      )
      .optional(),
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

export const peerToPeerMap = z.strictObject({
  ...meta,
  hero: z.strictObject({ eyebrow: text(), title: text(), text: text() }),
  figure: text(),
  stats: z.strictObject({ cities: text(), countries: text() }),
  top: z.strictObject({ title: text() }),
  cta: ctaBand(),
});

export const levels = z.strictObject({
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
