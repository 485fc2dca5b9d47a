import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { fallbackSchema, type PageCollection, pageSchemas } from './content/schema.ts';

// The marketing pages' content: one collection per page, one entry per language
// (src/content/<page>/<language>.yaml, entry id = language). The schemas live in
// src/content/schema.ts so `npm run check:content` (which the build runs first) validates the
// same files with the same rules and names file and field; Astro validates them again here.
// CONTENT_DIR builds from another copy of the content (tests/e2e/content.test.ts).
const base = process.env.CONTENT_DIR ?? './src/content';

function page<C extends PageCollection>(name: C) {
  return defineCollection({
    loader: glob({ pattern: '*.yaml', base: `${base}/${name}` }),
    schema: z.union([fallbackSchema, pageSchemas[name] as (typeof pageSchemas)[C]]),
  });
}

export const collections = {
  home: page('home'),
  testimonials: page('testimonials'),
  vendors: page('vendors'),
  media: page('media'),
  'peer-to-peer-map': page('peer-to-peer-map'),
  levels: page('levels'),
  'cookie-policy': page('cookie-policy'),
  about: page('about'),
  fees: page('fees'),
  terms: page('terms'),
  privacy: page('privacy'),
  support: page('support'),
  'proof-of-address': page('proof-of-address'),
};
