import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'astro/zod';
import { parseListingUrl } from '../lib/offer-listing-url.ts';
import { locales } from '../lib/shared/i18n/locales.ts';

// The pieces the page schemas (src/content/schema-landing.ts, schema-info.ts) are built from:
// texts, links checked against the site's routes and public/, icons, images and dates.

const root = join(import.meta.dirname, '..', '..');

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
  if (names.length < 10) throw new Error('src/content/schema-blocks.ts: could not read the icon names from Icon.astro');
  return names;
})();

// ---------------------------------------------------------------------------------------------
// Building blocks.

/** A piece of text that must be there and not be blank. */
export const text = () => z.string().trim().min(1, 'is empty: write the text or remove the field');

/** A link to a page of this site, written without the language: `/fees`, `/peer-to-peer-map#levels`. */
export const pageLink = () =>
  z
    .string()
    .trim()
    .superRefine((href, ctx) => {
      const reason = brokenLinkReason(href);
      if (reason) ctx.addIssue({ code: 'custom', message: `broken link "${href}": ${reason}` });
    });

/** A link to another website. */
export const externalLink = () =>
  z
    .string()
    .trim()
    .regex(/^https:\/\/[^\s/]+\.[^\s/]+/, 'must be a full address starting with https://');

export const icon = () =>
  z.string().refine((name) => iconNames.includes(name), {
    message: `unknown icon; use one of: ${iconNames.join(', ')}`,
  });

/**
 * An image: a file under public/ (`/press/photo.jpg`) and the text a screen reader says instead,
 * which is required (describe what the picture shows; never leave it out).
 */
export const image = () =>
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
export const day = () =>
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
export const cta = () => z.strictObject({ label: text(), href: pageLink() });

/** Eyebrow (small line above), heading and intro of a page section. */
export const sectionHead = { eyebrow: text(), title: text() };

/** A card with an icon, a heading and a paragraph (steps, reasons, values). */
export const card = () => z.strictObject({ icon: icon(), title: text(), text: text() });

/** Title and description: the browser tab and search results. */
export const meta = { title: text(), description: text() };

/** The closing band: heading, text and two buttons. */
export const ctaBand = () => z.strictObject({ title: text(), text: text(), primary: cta(), secondary: cta() });
