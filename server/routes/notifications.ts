import { Hono } from 'hono';
import * as v from 'valibot';
import { type AppEnv, personContextOf } from '../http/auth.ts';
import { requestLocale } from '../http/locale.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import { NOTIFICATION_TYPES, TABS } from '../services/notifications/types.ts';

// Spec section 7, "Notifications": the list per tab, mark read, reset counters, mark all read.
// Shapes the spec leaves open: docs/decisions/063-notifications-model.md 2026-11-24 "Notifications API".

/** The spec's page size (section 9). */
const MAX_LIMIT = 50;

const Tab = v.picklist(TABS, 'must be inbox or moderators');
const ReadFilter = v.picklist(['all', 'unread', 'read'], 'must be all, unread or read');
/** `types=trade_paid,trade_released` or a JSON array in a body. */
const TypeList = v.pipe(
  v.union([v.string(), v.array(v.string())], 'must be a list of notification types'),
  v.transform((value) => (Array.isArray(value) ? value : value.split(',')).map((t) => t.trim()).filter(Boolean)),
  v.maxLength(NOTIFICATION_TYPES.length, 'lists too many types'),
  v.check(
    (types) => types.every((t) => (NOTIFICATION_TYPES as readonly string[]).includes(t)),
    'must be known notification types',
  ),
);
const whole = (name: string, min: number, max: number, fallback: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,6}$/, `${name} must be a whole number`),
      v.transform(Number),
      v.minValue(min, `${name} must be at least ${min}`),
      v.maxValue(max, `${name} must be at most ${max}`),
    ),
    fallback,
  );

const ListQuery = v.object({
  limit: whole('limit', 1, MAX_LIMIT, '10'),
  offset: whole('offset', 0, 1_000_000, '0'),
  name: v.optional(Tab, 'inbox'),
  types: v.optional(TypeList),
  'filter-action': v.optional(ReadFilter, 'all'),
});

const Ids = v.object({
  ids: v.pipe(
    v.array(v.pipe(v.string('must be text'), v.regex(/^ntf_[0-9A-Za-z]{16}$/, 'must be notification ids'))),
    v.minLength(1, 'must name at least one notification'),
    v.maxLength(100, 'must name at most 100 notifications'),
  ),
});

const AllBody = v.object({
  name: v.optional(Tab, 'inbox'),
  types: v.optional(TypeList),
  // Only unread ones can become read: the filter is accepted for the spec's shape and changes nothing.
  'filter-action': v.optional(ReadFilter),
});

export function notificationRoutes(services: Services) {
  const { notifications } = services;
  return new Hono<AppEnv>()
    .get('/', validate('query', ListQuery), async (c) => {
      const ctx = personContextOf(c);
      const q = c.req.valid('query');
      return c.json(
        await notifications.list(ctx, {
          tab: q.name,
          types: q.types,
          read: q['filter-action'],
          limit: q.limit,
          offset: q.offset,
          locale: requestLocale(c),
        }),
      );
    })
    .post('/', validate('json', Ids), async (c) => {
      const { updated, unread } = await notifications.markRead(personContextOf(c), { ids: c.req.valid('json').ids });
      return c.json({ data: { updated }, meta: { unread } });
    })
    .post('/reset-counters', validate('json', Ids), async (c) => {
      const { updated, unread } = await notifications.resetCounters(personContextOf(c), {
        ids: c.req.valid('json').ids,
      });
      return c.json({ data: { updated }, meta: { unread } });
    })
    .post('/all', validate('json', AllBody), async (c) => {
      const body = c.req.valid('json');
      const { updated, unread } = await notifications.markAll(personContextOf(c), {
        tab: body.name,
        types: body.types,
      });
      return c.json({ data: { updated }, meta: { name: body.name, unread } });
    });
}
