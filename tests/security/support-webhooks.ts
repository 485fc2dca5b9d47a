import { newId } from '../../db/ids.ts';
import type { TestApp } from '../support/test-app.ts';

// Merchants' webhooks in the security suite's world: A and C are merchants with enabled webhooks
// (C's is the one the DELETE sample removes), and A has one delivered event to resend. The URLs are
// never called: no delivery job runs in the suite, and the samples that would verify a URL give a
// reserved address that is refused before any request.

export interface WebhookWorld {
  /** A's delivered event (`msg_…`). */
  delivery: string;
  /** An address the guard refuses (TEST-NET-1): what the verify and save samples send. */
  refusedUrl: string;
}

export async function buildWebhookWorld(t: TestApp, merchants: { A: number; C: number }): Promise<WebhookWorld> {
  const at = t.clock.now;
  for (const [name, id] of Object.entries(merchants)) {
    await t.db.sql.run('UPDATE users SET is_merchant = 1 WHERE id = ?', [id]);
    await t.db.sql.run(
      `INSERT INTO webhooks (user_id, url, enabled, secret, created_at, updated_at) VALUES (?, ?, 1, ?, ?, ?)`,
      [id, `https://hooks.example.com/${name}`, `whsec_${Buffer.alloc(24, name).toString('base64')}`, at, at],
    );
  }
  const delivery = newId('msg');
  await t.db.sql.run(
    `INSERT INTO webhook_deliveries (message_id, user_id, event, payload, status, attempts, created_at, delivered_at)
     VALUES (?, ?, 'webhook.test', '{}', 'delivered', 1, ?, ?)`,
    [delivery, merchants.A, at, at],
  );
  return { delivery, refusedUrl: 'http://192.0.2.1/hook' };
}
