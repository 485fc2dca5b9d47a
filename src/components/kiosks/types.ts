import type { IslandMessages } from '../../lib/shared/i18n/island-messages.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { KioskView } from '../../lib/shared/views/kiosks.ts';

// What the /kiosk page hands its island, and the translator every part of it takes.

export type T = (key: string, params?: Record<string, string | number>) => string;

/** A fiat currency the sale form offers: its code and its name in the page's language. */
export interface FiatChoice {
  code: string;
  name: string;
}

export interface KioskProps {
  locale: Locale;
  /** BCP 47 tag for dates and numbers (`localeTags`). */
  lang: string;
  messages: IslandMessages;
  /** The kiosk's balance, margin and latest sales as the page read them; null for someone who is not a kiosk. */
  kiosk: KioskView | null;
  /** The fiat currencies of the reference API, by code. */
  currencies: FiatChoice[];
  /** The fiat currency the sale form starts with (the person's own, when it is in the list). */
  defaultFiat: string;
  /** The support page, in the page's language (kiosk accounts are opened by the team). */
  supportLink: string;
  /** The wallet page, in the page's language (what the kiosk balance is funded from). */
  walletLink: string;
}

/** Says something to screen readers through the island's one live region. */
export type Announce = (text: string) => void;
