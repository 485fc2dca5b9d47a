import { describe, expect, it } from 'vitest';
import { adminFormat, failureMessage } from '../../src/components/admin/use-admin-format.ts';
import { type ApiResult, NETWORK_ERROR_CODE } from '../../src/lib/api-client.ts';

// The operator console's formatting (src/components/admin/use-admin-format.ts): times in UTC from
// the database's epoch milliseconds, amounts as the reader's language writes them, the API's
// error message shown as it came (in the page's language) and a general one otherwise.

const messages = {
  'admin.error.generic': 'Something went wrong. Please try again.',
  'admin.error.network': 'We could not reach Coinfair.',
  'admin.file.level': 'Level {level}',
};

const failed = (errors: ApiResult<unknown>['errors'], status = 401): ApiResult<unknown> => ({
  ok: false,
  status,
  data: undefined,
  meta: undefined,
  errors,
  retryAfterSeconds: undefined,
  message: undefined,
});

describe('the console format', () => {
  it('writes epoch milliseconds in UTC, marked, whatever the time zone', () => {
    const en = adminFormat('en', 'en-US', messages);
    // 2026-11-29 23:30 UTC is already the 30th east of Greenwich: the console says UTC's day.
    expect(en.when(Date.UTC(2026, 10, 29, 23, 30))).toBe('Nov 29, 2026, 11:30 PM UTC');
    expect(adminFormat('de', 'de-DE', messages).when(Date.UTC(2026, 10, 29, 23, 30))).toBe('29.11.2026, 23:30 UTC');
    expect(en.when(null)).toBe('—');
  });

  it('writes amounts in the reader’s language, crypto with all its decimals', () => {
    const de = adminFormat('de', 'de-DE', messages);
    expect(de.crypto({ amount: '0.00150000', currency: 'BTC' })).toBe('0,00150000 BTC');
    expect(de.crypto({ amount: '-0.00150000', currency: 'BTC' }, true)).toBe('-0,00150000 BTC');
    expect(de.fiat({ amount: '100.00', currency: 'EUR' })).toBe('100,00\u00a0€');
    expect(de.usd(11_628)).toBe('116,28\u00a0$');
    expect(de.t('admin.file.level', { level: 2 })).toBe('Level 2');
    expect(de.api('/rest/v1/operators/people?q=x')).toBe('/rest/v1/operators/people?q=x&locale=de');
  });

  it('shows the API’s own message, or says what kind of failure it was', () => {
    const { t } = adminFormat('en', 'en-US', messages);
    expect(failureMessage(failed([{ code: 'TWO_FACTOR_INVALID', message: 'This code is not correct.' }]), t)).toBe(
      'This code is not correct.',
    );
    expect(failureMessage(failed([{ code: NETWORK_ERROR_CODE, message: '' }], 0), t)).toBe(
      'We could not reach Coinfair.',
    );
    expect(failureMessage(failed([{ code: 'HTTP_ERROR', message: '' }], 500), t)).toBe(
      'Something went wrong. Please try again.',
    );
  });
});
