import { Hono } from 'hono';
import * as v from 'valibot';
import { WEBHOOK_EVENTS } from '../../src/lib/shared/webhooks.ts';
import { type AppEnv, personContextOf, signedIn } from '../http/auth.ts';
import { validate } from '../http/validate.ts';
import type { Services } from '../services/container.ts';
import { MAX_URL_LENGTH } from '../services/webhooks/address-guard.ts';

// Merchants' webhooks (spec sections 4, 5 and 7 "Webhooks"; issue 21; docs/webhooks.md):
//   GET    /rest/v1/webhooks                            the webhook, its secret and events; meta.link
//   POST   /rest/v1/webhooks/verify                     url: sends the challenge; data.challenge
//   POST   /rest/v1/webhooks                            url: saves it once its challenge passed
//   DELETE /rest/v1/webhooks                            back to initial, events unchecked
//   POST   /rest/v1/webhooks/events                     events: [{ name, checked }]
//   POST   /rest/v1/webhooks/secret                     a new secret; the old one signs 24 h more
//   POST   /rest/v1/webhooks/test                       a webhook.test delivery now
//   GET    /rest/v1/webhooks/deliveries                 the log, newest first; before: the last id seen
//   POST   /rest/v1/webhooks/deliveries/{id}/resend     that delivery again, same webhook-id
//   POST   /rest/v1/merchants/join                      an identity-verified person becomes a merchant
// The webhook routes are for merchants; anyone else signed in gets 403.

/** Where the screen's "how to receive webhooks" link goes (spec: the webhook's knowledge link). */
export const WEBHOOKS_KNOWLEDGE_LINK = '/developers#webhooks';

const UrlBody = v.object({
  url: v.pipe(
    v.string('must be text'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`),
  ),
});
const EventsBody = v.object({
  events: v.pipe(
    v.array(
      v.object({
        name: v.picklist(WEBHOOK_EVENTS, `must be one of ${WEBHOOK_EVENTS.join(', ')}`),
        checked: v.boolean('must be true or false'),
      }),
      'must be a list of { name, checked }',
    ),
    v.minLength(1, 'must name at least one event'),
    v.maxLength(WEBHOOK_EVENTS.length * 2, 'names too many events'),
  ),
});
const deliveryId = v.pipe(v.string(), v.regex(/^msg_[0-9A-Za-z]{16}$/, 'must be a delivery id (msg_…)'));
const DeliveriesQuery = v.object({ before: v.optional(deliveryId) });
const DeliveryParam = v.object({ id: deliveryId });

export function webhookRoutes(services: Services) {
  const { webhooks } = services;
  return new Hono<AppEnv>()
    .use('/rest/v1/webhooks', signedIn)
    .use('/rest/v1/webhooks/*', signedIn)
    .use('/rest/v1/merchants/*', signedIn)
    .post('/rest/v1/merchants/join', async (c) => c.json({ data: await webhooks.becomeMerchant(personContextOf(c)) }))
    .get('/rest/v1/webhooks', async (c) =>
      c.json({ data: await webhooks.read(personContextOf(c)), meta: { link: WEBHOOKS_KNOWLEDGE_LINK } }),
    )
    .post('/rest/v1/webhooks/verify', validate('json', UrlBody), async (c) =>
      c.json({ data: await webhooks.verify(personContextOf(c), c.req.valid('json')) }),
    )
    .post('/rest/v1/webhooks', validate('json', UrlBody), async (c) =>
      c.json({ data: await webhooks.save(personContextOf(c), c.req.valid('json')) }),
    )
    .delete('/rest/v1/webhooks', async (c) => c.json({ data: await webhooks.remove(personContextOf(c)) }))
    .post('/rest/v1/webhooks/events', validate('json', EventsBody), async (c) =>
      c.json({ data: await webhooks.selectEvents(personContextOf(c), c.req.valid('json')) }),
    )
    .post('/rest/v1/webhooks/secret', async (c) => c.json({ data: await webhooks.rotateSecret(personContextOf(c)) }))
    .post('/rest/v1/webhooks/test', async (c) => c.json({ data: await webhooks.sendTest(personContextOf(c)) }))
    .get('/rest/v1/webhooks/deliveries', validate('query', DeliveriesQuery), async (c) =>
      c.json(await webhooks.deliveries(personContextOf(c), c.req.valid('query'))),
    )
    .post('/rest/v1/webhooks/deliveries/:id/resend', validate('param', DeliveryParam), async (c) =>
      c.json({ data: await webhooks.resend(personContextOf(c), c.req.valid('param')) }),
    );
}
