import { toMinorUnits } from '../../../src/lib/shared/money.ts';
import type { ServiceContext } from '../context.ts';
import { type FieldIssue, invalidInput } from '../errors.ts';
import type { OffersCatalogue } from './catalogue.ts';
import { minorPerUsd } from './funding-needs.ts';
import type { OffersRepository, SearchFilters } from './repository.ts';
import type { RelaxedCriterion, SearchInput } from './types.ts';

// The listing's query read into the repository's filters, minus whatever the search relaxed.

/** Cash in person "near" a place: about 50 km (latitude degrees; longitude is looser far from the equator). */
const NEAR_DEGREES = 0.45;

/** Everything the query names, looked up in the catalogue; 400 with every unknown at once. */
function lookUp(input: SearchInput, ctx: ServiceContext, catalogue: OffersCatalogue) {
  const details: FieldIssue[] = [];
  // The listing's country: what the visitor picked (`visitor_country_has_changed`; none is
  // "worldwide"), else their settings', else the one the page says, else where the request comes from.
  const countryIso = input.visitorCountryHasChanged
    ? input.visitorCountryIso
    : (ctx.auth?.profile.countryIso ?? input.visitorCountryIso ?? ctx.visitorCountryIso);
  if (countryIso !== undefined && !catalogue.isCountry(countryIso)) {
    details.push({ field: 'visitor_country_iso', message: `Unknown country ${countryIso}.` });
  }
  // A localized listing without a currency shows the visitor's own currency.
  let currencyCode = input.currency;
  if (!currencyCode && input.isPaymentLocalized && countryIso) currencyCode = catalogue.countryCurrency(countryIso);
  const currency = currencyCode ? catalogue.currencyByCode(currencyCode) : undefined;
  if (currencyCode && !currency) details.push({ field: 'currency', message: `Unknown currency ${currencyCode}.` });
  const method = input.paymentMethod ? catalogue.methodBySlug(input.paymentMethod) : undefined;
  if (input.paymentMethod && !method) {
    details.push({ field: 'payment-method', message: `Unknown payment method ${input.paymentMethod}.` });
  }
  const group = input.group ? catalogue.groupBySlug(input.group) : undefined;
  if (input.group && !group) details.push({ field: 'group', message: `Unknown payment group ${input.group}.` });
  const place = input.locationId !== undefined ? catalogue.location(input.locationId) : undefined;
  if (input.locationId !== undefined && !place) {
    details.push({ field: 'location_id', message: `Unknown location ${input.locationId}.` });
  }
  const crypto = catalogue.cryptoById(input.cryptoCurrencyId);
  if (!crypto) details.push({ field: 'crypto_currency_id', message: 'Must be 1 (BTC) or 2 (USDT).' });
  // The amount is read in major units; with a currency it must fit that currency's decimals.
  let amount: number | undefined;
  if (input.fiatMin) {
    const minor = toMinorUnits(input.fiatMin, currency?.minorUnits ?? 3);
    if (minor === undefined || minor <= 0) details.push({ field: 'fiat-min', message: 'Must be an amount above 0.' });
    else amount = Number(input.fiatMin);
  }
  if (details.length > 0) throw invalidInput(details);
  return { countryIso, currency, method, group, place, amount, crypto };
}

/** The filters of one try, and the criteria the next try may drop, in the spec's order. */
export async function filtersOf(
  { repo, catalogue }: { repo: OffersRepository; catalogue: OffersCatalogue },
  input: SearchInput,
  ctx: ServiceContext,
  relaxed: Set<RelaxedCriterion>,
  /** The coin's market price in US dollars this bucket: margin offers' funds are compared at it. */
  cryptoUsd: number,
) {
  const { auth } = ctx;
  const { countryIso, currency, method, group, place, amount, crypto } = lookUp(input, ctx, catalogue);
  const offerType = input.type === 'buy' ? 'sell' : 'buy';
  // Only people with blocks see a list of their own; everyone else shares the cached one.
  const viewerId = auth && (await repo.hasBlocks(auth.user.id)) ? auth.user.id : undefined;
  const filters: SearchFilters = {
    offerType,
    cryptoCurrencyId: input.cryptoCurrencyId,
    fiatCurrencyId: relaxed.has('currency') ? undefined : currency?.id,
    paymentMethodId: relaxed.has('payment_method') ? undefined : method?.id,
    paymentGroupId: relaxed.has('payment_method') ? undefined : group?.id,
    amount: relaxed.has('amount') || relaxed.has('currency') ? undefined : amount,
    countryIso,
    viewerId,
    near: place ? { latitude: place.latitude, longitude: place.longitude, radiusDegrees: NEAR_DEGREES } : undefined,
    // A sell offer whose owner cannot cover its smallest trade is not listed (decision 121).
    sellerFunds:
      offerType === 'sell' && crypto
        ? { crypto: crypto.code, minorPerUsd: minorPerUsd(cryptoUsd, crypto.decimals) }
        : undefined,
  };
  const canRelax: RelaxedCriterion[] = [];
  if (filters.amount !== undefined) canRelax.push('amount');
  if (filters.fiatCurrencyId !== undefined) canRelax.push('currency');
  if (filters.paymentMethodId !== undefined || filters.paymentGroupId !== undefined) canRelax.push('payment_method');
  return { filters, canRelax, currencyCode: currency?.code ?? null, countryIso: countryIso ?? null };
}
