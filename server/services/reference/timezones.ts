import type { TimezoneView } from '../../../src/lib/shared/views/reference.ts';
import type { ServiceContext } from '../context.ts';
import type { ReferenceParts } from './deps.ts';

// Time zones with their current UTC offsets, recomputed now and then (offsets move with DST).

const TIMEZONE_CACHE_MS = 15 * 60 * 1000;

function utcOffsetMinutes(timeZone: string, at: Date): number {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(part ?? '');
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export async function listTimezones(
  { repo, now, caches }: ReferenceParts,
  _ctx: ServiceContext,
): Promise<TimezoneView[]> {
  const at = now();
  if (!caches.timezones || at - caches.timezones.at > TIMEZONE_CACHE_MS) {
    const date = new Date(at);
    const list = (await repo.listTimezones()).map((tz) => {
      const offsetMinutes = utcOffsetMinutes(tz.name, date);
      return { name: tz.name, region: tz.region, offset: formatOffset(offsetMinutes), offsetMinutes };
    });
    caches.timezones = { at, list };
  }
  return caches.timezones.list;
}
