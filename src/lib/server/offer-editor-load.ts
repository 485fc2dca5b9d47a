import type { AstroGlobal } from 'astro';
import type {
  EditableOffer,
  EditorCountry,
  EditorCurrency,
  EditorGroup,
  EditorLists,
  EditorMethod,
} from '../../components/offer-editor/types.ts';
import type { Locale } from '../shared/i18n/locales.ts';
import { CRYPTO_DECIMALS, toMinorUnits } from '../shared/money.ts';
import { type ApiAnswer, callApi } from './page-api.ts';

// Server side of the vendor pages (offer editor, my offers): who is asking, the reference lists
// the editor picks from, trimmed to what the island reads. Cookies and the way to sign-in: page-api.ts.

export interface Viewer {
  isLogged?: boolean;
  isVendor?: boolean;
  username?: string;
  currency?: string;
}

const withLocale = (path: string, locale: Locale) => `${path}${path.includes('?') ? '&' : '?'}locale=${locale}`;

export function loadViewer(Astro: AstroGlobal, locale: Locale): Promise<ApiAnswer<Viewer>> {
  return callApi<Viewer>(Astro, withLocale('/rest/v1/users/current_user', locale));
}

interface CurrencyAnswer {
  code: string;
  name: string;
  minorUnits: number;
  rate: { btc: number; usdt: number };
}
interface GroupAnswer {
  id: number;
  slug: string;
  name: string;
  isSelectable: boolean;
  methods: { slug: string; name: string; groupId: number; description_short: string; warningText: string | null }[];
}

/** The lists the editor picks from, and the API's answers (their renewed cookies go on to the browser). */
export async function loadEditorLists(
  Astro: AstroGlobal,
  locale: Locale,
): Promise<EditorLists & { answers: ApiAnswer<unknown>[] }> {
  const [currencies, groups, countries] = await Promise.all([
    callApi<CurrencyAnswer[]>(Astro, withLocale('/rest/v1/currencies', locale)),
    callApi<GroupAnswer[]>(Astro, withLocale('/rest/v1/payment-methods', locale)),
    callApi<{ iso: string; name: string }[]>(Astro, withLocale('/rest/v1/countries?limit=500', locale)),
  ]);
  if (!currencies.data || !groups.data || !countries.data) {
    throw new Error(
      `offer editor: the API answered ${[currencies, groups, countries].map((a) => a.status).join(', ')}`,
    );
  }
  const collator = new Intl.Collator(locale);
  return {
    answers: [currencies, groups, countries] as ApiAnswer<unknown>[],
    currencies: currencies.data.map(
      (c): EditorCurrency => ({
        code: c.code,
        name: c.name,
        minorUnits: c.minorUnits,
        rate: { btc: c.rate.btc, usdt: c.rate.usdt },
      }),
    ),
    groups: groups.data.map(
      (g): EditorGroup => ({ id: g.id, slug: g.slug, name: g.name, isSelectable: g.isSelectable }),
    ),
    methods: groups.data.flatMap((g) =>
      g.methods.map(
        (m): EditorMethod => ({
          slug: m.slug,
          name: m.name,
          groupId: m.groupId,
          description: m.description_short,
          warningText: m.warningText,
        }),
      ),
    ),
    // Names in the reader's language, so sorted in it too.
    countries: countries.data
      .map((c): EditorCountry => ({ iso: c.iso, name: c.name }))
      .sort((a, b) => collator.compare(a.name, b.name)),
  };
}

/**
 * The vendor's wallets in minor units (GET /rest/v1/balances), for the editor's warning on a sell
 * offer they cannot fund; undefined when the API did not answer them.
 */
export async function loadBalances(
  Astro: AstroGlobal,
): Promise<{ balances: Record<'BTC' | 'USDT', number> | undefined; answer: ApiAnswer<unknown> }> {
  const answer = await callApi<{ cryptoCurrencyCode: string; balance: string }[]>(Astro, '/rest/v1/balances');
  if (!answer.data) return { balances: undefined, answer };
  const balances = { BTC: 0, USDT: 0 };
  for (const { cryptoCurrencyCode: code, balance } of answer.data) {
    if (code === 'BTC' || code === 'USDT') balances[code] = toMinorUnits(balance, CRYPTO_DECIMALS[code]) ?? 0;
  }
  return { balances, answer };
}

/** The fields of an offer view the editor starts from (the rest would only weigh on the page). */
export function editableOffer(view: EditableOffer): EditableOffer {
  return {
    hash: view.hash,
    type: view.type,
    cryptoCurrency: view.cryptoCurrency,
    fiatCurrency: view.fiatCurrency,
    paymentMethodSlug: view.paymentMethodSlug,
    priceType: view.priceType,
    margin: view.margin,
    fiatPricePerCrypto: view.fiatPricePerCrypto,
    fiatLimitMin: view.fiatLimitMin,
    fiatLimitMax: view.fiatLimitMax,
    predefinedAmount: view.predefinedAmount,
    paymentWindowTime: view.paymentWindowTime,
    paymentMethodLabel: view.paymentMethodLabel,
    offerTerms: view.offerTerms,
    ...(view.tradeInstructions === undefined ? {} : { tradeInstructions: view.tradeInstructions }),
    tags: view.tags,
    requireVerifiedId: view.requireVerifiedId,
    showOnlyTrustedUser: view.showOnlyTrustedUser,
    bond: { isRequired: view.bond.isRequired },
    requireOfferCurrencyMatchBuyerCountry: view.requireOfferCurrencyMatchBuyerCountry,
    requireMinPastTrades: view.requireMinPastTrades,
    newBuyerMaxFiatLimit: view.newBuyerMaxFiatLimit,
    isPubliclyVisible: view.isPubliclyVisible,
    isGold: view.isGold,
    isSkipWarnings: view.isSkipWarnings,
    tradeRequirements: view.tradeRequirements,
    allowedCountries: view.allowedCountries,
    blockedCountries: view.blockedCountries,
    location: view.location ? { id: view.location.id, prettyName: view.location.prettyName } : null,
  };
}
