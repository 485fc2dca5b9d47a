import { newId } from '../../../db/ids.ts';
import type { ExportFormat } from '../../../db/schema/index.ts';
import type { PersonContext } from '../context.ts';
import { AppError, invalidInput } from '../errors.ts';
import type { ExportsDeps } from './deps.ts';
import { type ExportView, exportView } from './view.ts';

// POST /rest/v1/exports: a person asks for everything that is theirs between two days (UTC, both
// included). The export covers rows dated up to the moment of the request, never later, so what
// the file holds does not change while it is built. The job (build.ts) takes it from there.

const DAY_MS = 86_400_000;

export interface ExportRequest {
  format: ExportFormat;
  /** `YYYY-MM-DD` (the route checked the shape). */
  from: string;
  to: string;
  locale: string;
}

/** Unix ms of the day's start in UTC, or undefined for a day the calendar lacks (2026-02-30). */
export function dayStart(day: string): number | undefined {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const at = Date.UTC(year, month - 1, date);
  const back = new Date(at);
  return back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === date
    ? at
    : undefined;
}

function rangeOf(input: ExportRequest, now: number) {
  const fromAt = dayStart(input.from);
  const toStart = dayStart(input.to);
  const issues = [
    ...(fromAt === undefined
      ? [{ field: 'from', message: 'is not a day of the calendar', key: 'export_bad_day' }]
      : []),
    ...(toStart === undefined ? [{ field: 'to', message: 'is not a day of the calendar', key: 'export_bad_day' }] : []),
  ];
  if (fromAt === undefined || toStart === undefined) throw invalidInput(issues);
  if (fromAt > now)
    throw invalidInput([{ field: 'from', message: 'must not be in the future', key: 'export_from_future' }]);
  if (toStart < fromAt)
    throw invalidInput([{ field: 'to', message: 'must not be before the first day', key: 'export_to_before_from' }]);
  // Up to and including the request's millisecond: `to_at` is exclusive.
  return { fromAt, toAt: Math.min(toStart + DAY_MS, now + 1) };
}

export async function requestExport(deps: ExportsDeps, ctx: PersonContext, input: ExportRequest): Promise<ExportView> {
  const now = deps.now();
  const { fromAt, toAt } = rangeOf(input, now);
  const userId = ctx.auth.user.id;
  if ((await deps.repo.unfinishedOf(userId)) >= deps.maxUnfinished) {
    throw new AppError(
      'TOO_MANY_EXPORTS',
      `At most ${deps.maxUnfinished} exports are built at a time; wait until one is ready.`,
      { key: 'too_many_exports', params: { count: deps.maxUnfinished }, retryAfterSeconds: 30 },
    );
  }
  const publicId = newId('exp');
  await deps.repo.insert({
    publicId,
    userId,
    format: input.format,
    fromDate: input.from,
    toDate: input.to,
    fromAt,
    toAt,
    locale: input.locale,
    at: now,
  });
  const row = await deps.repo.mine(userId, publicId);
  if (!row) throw new Error(`export ${publicId} vanished after its insert`);
  return exportView(row, now);
}
