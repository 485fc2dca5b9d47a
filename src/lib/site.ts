import type { MessageKey } from './shared/i18n/messages.ts';

// Site-wide facts for the static marketing pages: the brand, navigation and the link lists
// the header, footer and home page share. Paths are locale-free; pages run them through
// `localizePath`.

export const siteName = 'Coinfair';

/**
 * Public contact addresses, fixed into the pages at build time. An operator sets them with
 * PUBLIC_SUPPORT_EMAIL and PUBLIC_PRESS_EMAIL; the defaults sit on a reserved domain that can
 * never reach a stranger's inbox.
 */
export const supportEmail: string = import.meta.env.PUBLIC_SUPPORT_EMAIL || 'support@coinfair.example';
export const pressEmail: string = import.meta.env.PUBLIC_PRESS_EMAIL || 'press@coinfair.example';

export interface SiteLink {
  key: MessageKey;
  href: string;
}

/** The four marketplace routes (named routes of spec section 2). */
export const tradeLinks: readonly SiteLink[] = [
  { key: 'nav.buyBitcoin', href: '/buy-bitcoin' },
  { key: 'nav.sellBitcoin', href: '/sell-bitcoin' },
  { key: 'nav.buyTether', href: '/buy-tether' },
  { key: 'nav.sellTether', href: '/sell-tether' },
];

/** Main navigation: the mobile menu lists all six; the desktop bar groups `tradeLinks`. */
export const navLinks: readonly SiteLink[] = [
  ...tradeLinks,
  { key: 'nav.wallet', href: '/wallet' },
  { key: 'nav.vendors', href: '/vendors' },
];

export interface FooterColumn {
  id: string;
  title: MessageKey;
  links: readonly SiteLink[];
}

export const footerColumns: readonly FooterColumn[] = [
  {
    id: 'marketplace',
    title: 'footer.marketplace',
    links: [...navLinks.slice(0, 5), { key: 'footer.fees', href: '/fees' }],
  },
  {
    id: 'company',
    title: 'footer.company',
    links: [
      { key: 'footer.about', href: '/about' },
      { key: 'nav.vendors', href: '/vendors' },
      { key: 'footer.media', href: '/media' },
      { key: 'footer.map', href: '/peer-to-peer-map' },
      { key: 'footer.proofOfReserves', href: '/proof-of-reserves' },
      { key: 'footer.transparency', href: '/transparency' },
    ],
  },
  {
    id: 'help',
    title: 'footer.help',
    links: [
      { key: 'footer.support', href: '/support' },
      { key: 'footer.fees', href: '/fees' },
      { key: 'footer.levels', href: '/peer-to-peer-map#levels' },
    ],
  },
  {
    id: 'legal',
    title: 'footer.legal',
    links: [
      { key: 'footer.terms', href: '/terms' },
      { key: 'footer.privacy', href: '/privacy' },
      { key: 'footer.cookiePolicy', href: '/cookie-policy' },
    ],
  },
];

/** Fiat currencies offered as "BTC to …" converter links (calculator route, spec section 2). */
export const converterCurrencies = [
  'USD',
  'EUR',
  'GBP',
  'NGN',
  'INR',
  'KES',
  'BRL',
  'ARS',
  'CAD',
  'AUD',
  'GHS',
  'ZAR',
] as const;

export function calculatorPath(currency: string): string {
  return `/calculator/btc-to-${currency.toLowerCase()}`;
}

/**
 * The six selectable payment groups of spec section 9, each with a few well-known methods.
 * Slugs match db/seed/data/payment-methods.ts. Method names are brand names and stay
 * untranslated; the group texts live in the catalogues.
 */
export const paymentGroups = [
  {
    slug: 'bank-transfers',
    icon: 'bank',
    methods: [
      ['sepa', 'SEPA'],
      ['faster-payments', 'Faster Payments'],
      ['ach-transfer', 'ACH'],
      ['imps', 'IMPS'],
      ['upi', 'UPI'],
      ['pix', 'Pix'],
    ],
  },
  {
    slug: 'online-transfers',
    icon: 'send',
    methods: [
      ['paypal', 'PayPal'],
      ['wise', 'Wise'],
      ['revolut', 'Revolut'],
      ['zelle', 'Zelle'],
      ['m-pesa', 'M-Pesa'],
      ['cash-app', 'Cash App'],
    ],
  },
  {
    slug: 'gift-cards',
    icon: 'gift',
    methods: [
      ['amazon-gift-card', 'Amazon'],
      ['apple-gift-card', 'Apple'],
      ['google-play-gift-card', 'Google Play'],
      ['steam-wallet-gift-card', 'Steam'],
      ['sephora-gift-card', 'Sephora'],
    ],
  },
  {
    slug: 'cash-deposits',
    icon: 'cash',
    methods: [
      ['western-union', 'Western Union'],
      ['moneygram', 'MoneyGram'],
      ['ria', 'Ria'],
      ['oxxo', 'OXXO'],
    ],
  },
  {
    slug: 'debitcredit-cards',
    icon: 'card',
    methods: [
      ['netspend', 'Netspend'],
      ['green-dot', 'Green Dot'],
    ],
  },
  {
    slug: 'digital-currencies',
    icon: 'coins',
    methods: [
      ['ethereum', 'Ethereum'],
      ['usdc', 'USD Coin'],
      ['litecoin', 'Litecoin'],
      ['solana', 'Solana'],
    ],
  },
] as const;

export type PaymentGroupSlug = (typeof paymentGroups)[number]['slug'];

/** Date of the current terms, privacy and cookie policies (ISO 8601). */
export const legalUpdated = '2026-11-01';
