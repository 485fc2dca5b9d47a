import { readFile } from 'node:fs/promises';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError, readConfig } from '../../server/config.ts';
import {
  type AddressFamily,
  countryName,
  createGeolocation,
  databasePath,
  publicAddress,
} from '../../server/services/devices/geolocation.ts';

// Against the DB-IP City Lite snapshot in node_modules. Countries of these well-known addresses
// were read from the database first; cities move between monthly releases, so only their
// presence is asserted.

/** A geolocation over the real files that counts what it loads. */
function counted() {
  const loads: AddressFamily[] = [];
  const log = vi.fn();
  const geo = createGeolocation({
    log,
    load: (family) => {
      loads.push(family);
      return readFile(databasePath(family));
    },
  });
  return { geo, loads, log };
}

const shared = createGeolocation();

describe('geolocation lookup', () => {
  it.each([
    ['8.8.8.8', 'US', 'United States'],
    ['1.1.1.1', 'AU', 'Australia'],
    ['81.2.69.142', 'GB', 'United Kingdom'],
    // RIPE NCC's own network, in Amsterdam.
    ['2001:67c:2e8:22::c100:68b', 'NL', 'Netherlands'],
  ])('places %s in %s', async (ip, countryCode, country) => {
    const place = await shared.lookup(ip);
    expect(place).toMatchObject({ countryCode, country });
    expect(place?.city).toEqual(expect.stringMatching(/\S/));
  });

  it('unwraps IPv4-mapped IPv6 in any spelling', async () => {
    const plain = await shared.lookup('8.8.8.8');
    expect(plain).not.toBeNull();
    expect(await shared.lookup('::ffff:8.8.8.8')).toEqual(plain);
    expect(await shared.lookup('0:0:0:0:0:FFFF:0808:0808')).toEqual(plain);
    expect(await shared.lookup(' ::ffff:808:808 ')).toEqual(plain);
  });

  it('answers null for private, loopback and reserved addresses without loading anything', async () => {
    const { geo, loads } = counted();
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.5.4',
      '192.168.1.10',
      '100.64.0.1',
      '169.254.1.1',
      '192.0.2.5',
      '198.51.100.20',
      '203.0.113.7',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:192.168.0.1',
      'fc00::1',
      'fd12:3456:789a::1',
      'fe80::1',
      'fe80::1%eth0',
      'ff02::1',
      '2001:db8::1',
    ]) {
      expect(await geo.lookup(ip), ip).toBeNull();
    }
    expect(loads).toEqual([]);
    expect(geo.loaded()).toEqual([]);
  });

  it('answers null for what is not an address, without loading anything', async () => {
    const { geo, loads, log } = counted();
    // mmdb-lib itself would answer `1.2.3` and `300.1.1.1`.
    for (const ip of ['', 'unknown', 'not an ip', '1.2.3', '300.1.1.1', '8.8.8.8:443', '[::1]', '1.1.1.1/24', '::g']) {
      expect(await geo.lookup(ip), ip).toBeNull();
    }
    expect(loads).toEqual([]);
    expect(log).not.toHaveBeenCalled();
  });

  it('loads each family on its first public address, once', async () => {
    const { geo, loads } = counted();
    expect(geo.loaded()).toEqual([]);
    const [a, b] = await Promise.all([geo.lookup('8.8.8.8'), geo.lookup('1.1.1.1')]);
    expect(a?.countryCode).toBe('US');
    expect(b?.countryCode).toBe('AU');
    expect(loads).toEqual([4]);
    await geo.lookup('::ffff:9.9.9.9');
    expect(loads).toEqual([4]);
    expect((await geo.lookup('2001:67c:2e8:22::c100:68b'))?.countryCode).toBe('NL');
    expect(loads).toEqual([4, 6]);
  });

  it('is off with enabled: false', async () => {
    const load = vi.fn();
    const geo = createGeolocation({ enabled: false, load });
    expect(await geo.lookup('8.8.8.8')).toBeNull();
    expect(load).not.toHaveBeenCalled();
  });

  it('answers null with one log line when the database cannot be read, and does not retry', async () => {
    const log = vi.fn();
    const load = vi.fn(async () => {
      throw new Error('ENOENT: no such file');
    });
    const geo = createGeolocation({ log, load });
    expect(await geo.lookup('8.8.8.8')).toBeNull();
    expect(await geo.lookup('1.1.1.1')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]?.[0]).toMatch(/^geolocation: IPv4 database unavailable.*ENOENT/);
  });

  it('answers null for a file that is not a database, and for a loader that throws at once', async () => {
    const log = vi.fn();
    const broken = createGeolocation({ log, load: async () => Buffer.from('not an mmdb file') });
    expect(await broken.lookup('8.8.8.8')).toBeNull();
    const throwing = createGeolocation({
      log,
      load: () => {
        throw new Error('cannot resolve');
      },
    });
    expect(await throwing.lookup('8.8.8.8')).toBeNull();
    expect(log).toHaveBeenCalledTimes(2);
  });
});

describe('publicAddress', () => {
  it('gives the address to look up and its family', () => {
    expect(publicAddress('8.8.8.8')).toEqual({ address: '8.8.8.8', family: 4 });
    expect(publicAddress('::ffff:8.8.8.8')).toEqual({ address: '8.8.8.8', family: 4 });
    expect(publicAddress('2001:4860:4860:0:0:0:0:8888')).toEqual({ address: '2001:4860:4860::8888', family: 6 });
    expect(publicAddress('10.0.0.1')).toBeNull();
  });
});

describe('countryName', () => {
  it('names a country in English, and nothing for no country', () => {
    expect(countryName('US')).toBe('United States');
    expect(countryName('DE')).toBe('Germany');
    expect(countryName('')).toBeNull();
    expect(countryName('ZZ')).toBeNull();
    expect(countryName('usa')).toBeNull();
  });
});

describe('GEOIP', () => {
  it('is on unless set to off, and names a bad value', () => {
    expect(readConfig({}).GEOIP).toBe('on');
    expect(readConfig({ GEOIP: 'off' }).GEOIP).toBe('off');
    expect(() => readConfig({ GEOIP: 'no' })).toThrow(ConfigError);
    expect(() => readConfig({ GEOIP: 'no' })).toThrow('GEOIP="no": must be on or off');
  });
});
