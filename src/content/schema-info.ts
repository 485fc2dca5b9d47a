import { z } from 'astro/zod';
import { card, cta, ctaBand, icon, image, meta, pageLink, text } from './schema-blocks.ts';

// The schemas of the information pages: cookie policy, about, fees, the legal pages, support and
// proof of address.

export const cookiePolicy = z.strictObject({
  ...meta,
  intro: text(),
  categories: z.strictObject({ title: text(), text: text() }),
  /** `{name}` is the name of the cookie that keeps the choice. */
  choice: z.strictObject({ title: text(), text: text(), nojs: text() }),
  effects: z.strictObject({ title: text(), text: text() }),
  thirdParty: z.strictObject({ title: text(), text: text() }),
});

export const about = z.strictObject({
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

export const fees = z.strictObject({
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
  /**
   * The affiliate programme (src/lib/shared/affiliates.ts): `text` takes the shares of both tiers
   * ({tier1}, {tier2}) and the payout minimum ({minimum}); `link` holds only the words of the link:
   * where it leads is the programme's own page (/affiliates), which the fees page links itself.
   */
  affiliates: z.strictObject({ title: text(), text: text(), link: text() }),
  cta: ctaBand(),
});

export const legal = z.strictObject({
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

export const support = z.strictObject({
  ...meta,
  hero: z.strictObject({ title: text(), text: text() }),
  faq: z.strictObject({
    title: text(),
    items: z.array(z.strictObject({ question: text(), answer: text() })).min(1),
  }),
  contact: z.strictObject({ title: text(), trade: text(), email: text() }),
  links: z.array(z.strictObject({ icon: icon(), label: text(), href: pageLink() })).min(1),
});

export const proofOfAddress = z.strictObject({
  ...meta,
  intro: text(),
  accepted: z.strictObject({
    title: text(),
    items: z.array(z.strictObject({ title: text(), text: text(), image: image() })).min(1),
  }),
  rules: z.strictObject({ title: text(), items: z.array(text()).min(1) }),
  rejected: z.strictObject({ title: text(), items: z.array(text()).min(1) }),
});
