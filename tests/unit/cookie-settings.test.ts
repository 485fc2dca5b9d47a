import { describe, expect, it } from 'vitest';
import {
  cookieCategories,
  cookieSettingsHeader,
  defaultCookieSettings,
  parseCookieSettings,
  serializeCookieSettings,
} from '../../src/lib/shared/cookie-settings.ts';

describe('cookie settings', () => {
  it('has the eight categories of spec section 3, all on by default', () => {
    expect(cookieCategories).toHaveLength(8);
    expect(Object.values(defaultCookieSettings()).every(Boolean)).toBe(true);
  });

  it('round-trips through the cookie value', () => {
    const settings = { ...defaultCookieSettings(), survey: false, forms: false };
    expect(serializeCookieSettings(settings)).toBe('11011101');
    expect(parseCookieSettings('11011101')).toEqual(settings);
  });

  it.each([undefined, '', 'abc', '1111', '111111112'])('reads %j as the defaults', (value) => {
    expect(parseCookieSettings(value)).toEqual(defaultCookieSettings());
  });

  it('lives one year at path /', () => {
    expect(cookieSettingsHeader(defaultCookieSettings(), true)).toBe(
      'cookie_settings=11111111; Path=/; Max-Age=31536000; SameSite=Lax; Secure',
    );
  });
});
