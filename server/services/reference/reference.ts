import type {
  CountryView,
  CurrencyView,
  FiatRate,
  LocationView,
  TimezoneView,
} from '../../../src/lib/shared/views/reference.ts';
import { bindVerb, type ServiceContext } from '../context.ts';
import { listCountries, searchLocations } from './countries.ts';
import { calculatorCurrencies, fiatPerUsd, getCurrency, listCurrencies, popularCurrencyCodes } from './currencies.ts';
import { createReferenceCaches, type ReferenceDeps, type ReferenceParts } from './deps.ts';
import { listPaymentGroups } from './payment-methods.ts';
import { listTimezones } from './timezones.ts';

// Reference data: currencies priced by the feed, countries, locations, payment groups and time
// zones. One kind of row per file; this wires them to the area's deps and caches.

export type { ReferenceDeps } from './deps.ts';
// The answer shapes are the API's contract, in src/lib/shared/views/reference.ts.
export type { CountryView, CurrencyView, FiatRate, LocationView, TimezoneView };

/** The verb with the area's parts bound: what callers see is `verb(ctx, input)`. */
export function createReferenceService(deps: ReferenceDeps) {
  const parts: ReferenceParts = { ...deps, caches: createReferenceCaches() };
  return {
    listCurrencies: bindVerb(parts, listCurrencies),
    popularCurrencyCodes: (ctx: ServiceContext) => popularCurrencyCodes(parts, ctx),
    getCurrency: bindVerb(parts, getCurrency),
    /** Units of the currency per US dollar, unrounded (market charts convert with it). */
    fiatPerUsd: bindVerb(parts, fiatPerUsd),
    calculatorCurrencies: bindVerb(parts, calculatorCurrencies),
    listCountries: bindVerb(parts, listCountries),
    searchLocations: bindVerb(parts, searchLocations),
    /** Payment groups with their methods; reference rows only, so shaped once per language. */
    listPaymentGroups: bindVerb(parts, listPaymentGroups),
    listTimezones: (ctx: ServiceContext) => listTimezones(parts, ctx),
  };
}

export type ReferenceService = ReturnType<typeof createReferenceService>;
