import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';

// Phone numbers as people type them, into E.164 (`+4915123456789`), the one form we store and
// send to. The full ("max") metadata checks that the number exists in its plan, not only its
// length, so a typo is caught here instead of as an SMS that never arrives.

export const PHONE_INPUT_MAX_LENGTH = 32;

/** Digits and the separators people write; letters (`ext.`, `tel:`, vanity numbers) are refused. */
const TYPED = /^\+?[\d\s().\-/]+$/;

export type ParsedPhone = { ok: true; e164: string; international: string } | { ok: false; message: string };

/**
 * `countryIso` is the account's country (users.country_id → countries.iso): with it a national
 * form such as `0151 23456789` is understood; without it only the international form is.
 */
export function parsePhone(input: string, countryIso?: string | null): ParsedPhone {
  const typed = input.trim();
  if (typed.length === 0 || typed.length > PHONE_INPUT_MAX_LENGTH || !TYPED.test(typed)) {
    return { ok: false, message: 'Enter the phone number with digits only, e.g. +49 151 23456789.' };
  }
  const upper = countryIso?.toUpperCase();
  const country = upper && isSupportedCountry(upper) ? upper : undefined;
  // Without a country, `00` is the international prefix in most of the world; read it as `+`.
  const text = !country && typed.startsWith('00') ? `+${typed.slice(2)}` : typed;
  if (!country && !text.startsWith('+')) {
    return {
      ok: false,
      message: 'Enter the number in international form: + and the country code, e.g. +49 151 23456789.',
    };
  }
  const parsed = parsePhoneNumberFromString(text, country);
  if (!parsed?.isValid() || parsed.ext) {
    return { ok: false, message: 'This is not a valid phone number. Check the country code and the digits.' };
  }
  return { ok: true, e164: parsed.number, international: parsed.formatInternational() };
}
