import type { IslandMessages } from '../../lib/shared/i18n/island-messages.ts';
import type { Locale } from '../../lib/shared/i18n/locales.ts';
import type { AffiliateSummary, ReferralsPage } from '../../lib/shared/views/affiliates.ts';

// What the /affiliates page hands its island, and the translator every part of it takes.

export type T = (key: string, params?: Record<string, string | number>) => string;

export interface AffiliatesProps {
  locale: Locale;
  /** BCP 47 tag for dates and numbers (`localeTags`). */
  lang: string;
  messages: IslandMessages;
  /** The reader's username: the referral table is asked for by it. */
  username: string;
  summary: AffiliateSummary;
  /** The table's first page, read by the page for an affiliate; null for someone who has not joined. */
  referrals: ReferralsPage | null;
  /** The QR code of `summary.link`, an SVG the page renders (uqr). */
  qrSvg: string;
}

/** A failed load as the page keeps it (spec section 8): the API's code and its message. */
export interface LoadError {
  code: string;
  message: string;
}
