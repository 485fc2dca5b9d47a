import { describe, expect, it } from 'vitest';
import { deviceFingerprint, networkOf } from '../../server/services/devices/fingerprint.ts';
import { parseUserAgent } from '../../server/services/devices/user-agent.ts';

// Real user agents of the browsers the device-review mail names.
const UA = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.86 Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70',
  operaMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0',
  firefoxLinux: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  firefoxIpad:
    'Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36',
  edgeAndroid:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.2903.68',
  headlessChromeLinux:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/142.0.7444.162 Safari/537.36',
};

describe('parseUserAgent', () => {
  it.each([
    [UA.chromeWindows, 'Chrome', '131.0.6778.86', 'Windows'],
    [UA.edgeWindows, 'Edge', '131.0.2903.70', 'Windows'],
    [UA.operaMac, 'Opera', '115.0.0.0', 'macOS'],
    [UA.firefoxLinux, 'Firefox', '133.0', 'Linux'],
    [UA.safariMac, 'Safari', '18.1', 'macOS'],
    [UA.safariIphone, 'Safari', '18.1', 'iOS'],
    [UA.chromeIphone, 'Chrome', '131.0.6778.73', 'iOS'],
    [UA.firefoxIpad, 'Firefox', '133.0', 'iOS'],
    [UA.chromeAndroid, 'Chrome', '131.0.6778.81', 'Android'],
    [UA.edgeAndroid, 'Edge', '131.0.2903.68', 'Android'],
    [UA.headlessChromeLinux, 'Chrome', '142.0.7444.162', 'Linux'],
  ])('reads %s', (ua, browser, version, os) => {
    expect(parseUserAgent(ua)).toEqual({ browser, version, os });
  });

  it('answers nulls for what it does not know', () => {
    expect(parseUserAgent('')).toEqual({ browser: null, version: null, os: null });
    expect(parseUserAgent('curl/8.5.0')).toEqual({ browser: null, version: null, os: null });
  });
});

describe('networkOf', () => {
  it('cuts IPv4 to its /24, also when mapped into IPv6', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.0/24');
    expect(networkOf('::ffff:203.0.113.200')).toBe('203.0.113.0/24');
  });

  it('cuts IPv6 to its /48, whatever the spelling', () => {
    expect(networkOf('2001:db8:1:2::1')).toBe('2001:db8:1::/48');
    expect(networkOf('2001:0DB8:0001:ffff:0:0:0:9')).toBe('2001:db8:1::/48');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0::/48');
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0::/48');
  });

  it('keeps what is not an address', () => {
    expect(networkOf('unknown')).toBe('unknown');
  });
});

describe('deviceFingerprint', () => {
  it('is the same for a new address in the same network and differs across networks and browsers', () => {
    const here = deviceFingerprint(UA.firefoxLinux, '198.51.100.20');
    expect(here).toMatch(/^[0-9a-f]{64}$/);
    expect(deviceFingerprint(UA.firefoxLinux, '198.51.100.99')).toBe(here);
    expect(deviceFingerprint(UA.firefoxLinux, '198.51.101.20')).not.toBe(here);
    expect(deviceFingerprint(UA.chromeWindows, '198.51.100.20')).not.toBe(here);
  });
});
