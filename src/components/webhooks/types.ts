import type { IslandMessages } from '../../lib/shared/i18n/island-messages.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { WebhookDeliveryView, WebhookView } from '../../lib/shared/webhooks.ts';

// What the /webhooks page hands its island, and the translator every part of it takes.

export type T = (key: string, params?: Record<string, string | number>) => string;

/** One page of the delivery log: newest first; `next` is the `before` of the following page. */
export interface DeliveriesPage {
  data: WebhookDeliveryView[];
  next: string | null;
}

export interface WebhooksProps {
  locale: Locale;
  /** BCP 47 tag for dates and numbers (`localeTags`). */
  lang: string;
  messages: IslandMessages;
  /** False: the invitation to become a merchant. */
  isMerchant: boolean;
  /** Whether the person may become a merchant (merchant accounts need a verified identity). */
  isIdVerified: boolean;
  /** The merchant's webhook as the page read it; null for someone who is not a merchant yet. */
  webhook: WebhookView | null;
  /** The log's first page, read by the page for a merchant; null otherwise. */
  deliveries: DeliveriesPage | null;
  /** "How to receive webhooks" (the API's meta.link, in the page's language). */
  guideLink: string;
  /** The identity verification page, in the page's language. */
  verificationLink: string;
}

/** Says something to screen readers through the island's one live region. */
export type Announce = (text: string) => void;
