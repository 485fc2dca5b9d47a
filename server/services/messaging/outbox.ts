import { and, desc, eq, sql } from 'drizzle-orm';
import { asDatabase, type DatabaseLike } from '../../../db/database.ts';
import { outbox } from '../../../db/schema/index.ts';
import {
  assertEmailAddress,
  assertPhoneNumber,
  type EmailMessage,
  type Mailer,
  type MessagingLog,
  type SmsMessage,
  type SmsSender,
} from './messaging.ts';

// The embedded default for messages to people: a row in the `outbox` table instead of a network
// call, so development, tests and a fresh install work offline. Operators (and tests that need a
// verification link) read the rows back. Statements are built once per database.

export type OutboxChannel = (typeof outbox.channel.enumValues)[number];
export type OutboxRow = typeof outbox.$inferSelect;

// A type, not an interface: drizzle's execute() wants an index-signature-compatible record.
export type NewOutboxRow = {
  channel: OutboxChannel;
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: number;
  deliveredAt: number | null;
};

/** An e-mail's outbox row as it is handed over, undelivered (the SMTP mailer stamps it later). */
export function emailRow(message: EmailMessage, at: number): NewOutboxRow {
  assertEmailAddress(message.to);
  return {
    channel: 'email',
    recipient: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html ?? null,
    createdAt: at,
    deliveredAt: null,
  };
}

/** An SMS's outbox row: SMS have no subject and no HTML. */
function smsRow(message: SmsMessage, at: number): NewOutboxRow {
  assertPhoneNumber(message.to);
  return {
    channel: 'sms',
    recipient: message.to,
    subject: '',
    text: message.text,
    html: null,
    createdAt: at,
    deliveredAt: null,
  };
}

export function createOutboxRepository(db: DatabaseLike) {
  const database = asDatabase(db);
  const { orm } = database;
  const insert = database.prepare(
    orm
      .insert(outbox)
      .values({
        channel: sql.placeholder('channel'),
        recipient: sql.placeholder('recipient'),
        subject: sql.placeholder('subject'),
        text: sql.placeholder('text'),
        html: sql.placeholder('html'),
        createdAt: sql.placeholder('createdAt'),
        deliveredAt: sql.placeholder('deliveredAt'),
      })
      .returning({ id: outbox.id }),
  );
  // Same timestamp is possible (one clock tick); the id breaks the tie in insertion order.
  const latest = database.prepare(
    orm
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, sql.placeholder('recipient')), eq(outbox.channel, sql.placeholder('channel'))))
      .orderBy(desc(outbox.createdAt), desc(outbox.id))
      .limit(1),
  );
  const forRecipient = database.prepare(
    orm
      .select()
      .from(outbox)
      .where(eq(outbox.recipient, sql.placeholder('recipient')))
      .orderBy(desc(outbox.createdAt), desc(outbox.id))
      .limit(sql.placeholder('limit')),
  );

  return {
    /** Stores one message and answers its row id. */
    async insert(row: NewOutboxRow): Promise<number> {
      const inserted = await insert.get(row);
      if (!inserted) throw new Error('outbox insert returned no row');
      return inserted.id;
    },
    async markDelivered(id: number, at: number): Promise<void> {
      await database.run(orm.update(outbox).set({ deliveredAt: at }).where(eq(outbox.id, id)));
    },
    /** The newest message to `recipient` on `channel`, e.g. the last verification mail. */
    latestFor(recipient: string, channel: OutboxChannel): Promise<OutboxRow | undefined> {
      return latest.get({ recipient, channel });
    },
    /** Messages to `recipient` on every channel, newest first. */
    listFor(recipient: string, limit = 100): Promise<OutboxRow[]> {
      return forRecipient.all({ recipient, limit });
    },
  };
}

export type OutboxRepository = ReturnType<typeof createOutboxRepository>;

interface OutboxAdapterOptions {
  db: DatabaseLike;
  now: () => number;
  log: MessagingLog;
}

export function createOutboxMailer({ db, now, log }: OutboxAdapterOptions): Mailer {
  const repo = createOutboxRepository(db);
  return {
    async send(message: EmailMessage) {
      await repo.insert(emailRow(message, now()));
      // Never the body: it may carry a sign-in or verification link.
      log.info(`mail to ${message.to}: ${JSON.stringify(message.subject)}`);
    },
  };
}

export function createOutboxSmsSender({ db, now, log }: OutboxAdapterOptions): SmsSender {
  const repo = createOutboxRepository(db);
  return {
    async send(message: SmsMessage) {
      await repo.insert(smsRow(message, now()));
      // Never the text: SMS carry one-time codes.
      log.info(`sms to ${message.to}: ${message.text.length} characters`);
    },
  };
}
