import { Hono } from 'hono';
import { type AppEnv, personContextOf } from '../http/auth.ts';
import type { Services } from '../services/container.ts';

// POST /rest/v1/telegram/subscribe and /unsubscribe (spec section 7). The link's Start arrives
// through the bot adapter (server/services/telegram/bot.ts), not through these routes.

export function telegramRoutes(services: Services) {
  const { telegram } = services;
  return new Hono<AppEnv>()
    .post('/subscribe', async (c) => c.json({ data: await telegram.subscribe(personContextOf(c)) }))
    .post('/unsubscribe', async (c) => {
      await telegram.unsubscribe(personContextOf(c));
      return c.json({ data: { telegramSubscribed: false } });
    });
}
