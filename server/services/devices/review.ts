import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import type { DeviceInfo } from '../../../src/lib/shared/views/devices.ts';
import type { ServiceContext } from '../context.ts';
import { localizedCountryName } from '../reference/display-names.ts';
import { countryName } from './geolocation.ts';
import { pendingDevice } from './review-token.ts';
import type { DeviceReviewParts } from './types.ts';

/** The pending device, its country named in `locale` (ICU; the English name if unknown). */
export async function reviewDevice(
  parts: DeviceReviewParts,
  _ctx: ServiceContext,
  { token, locale = 'en' }: { token: string; locale?: Locale },
): Promise<{ device: DeviceInfo }> {
  const found = await pendingDevice(parts, token);
  const english = found.country ? countryName(found.country) : null;
  return {
    device: {
      browser: found.browser,
      version: found.version,
      os: found.os,
      ip: found.ip,
      city: found.city,
      country: found.country && english ? localizedCountryName(locale, found.country, english) : null,
      date: new Date(found.createdAt).toISOString(),
    },
  };
}
