import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { createMailer, createSmsSender } from '../../server/services/messaging/create.ts';
import type { MessagingLog } from '../../server/services/messaging/messaging.ts';
import {
  createOutboxMailer,
  createOutboxRepository,
  createOutboxSmsSender,
} from '../../server/services/messaging/outbox.ts';
import { createTestDb, type TestDb } from '../support/test-db.ts';

let testDb: TestDb;
let db: Database;
let lines: string[];
let clock: number;
const log: MessagingLog = { info: (line) => lines.push(line) };
const now = () => clock;

beforeEach(async () => {
  testDb = await createTestDb();
  db = testDb.db;
  lines = [];
  clock = 1_800_000_000_000;
});
afterEach(() => testDb.close());

const loginMail = {
  to: 'ana@example.com',
  subject: 'Sign in to Coinfair',
  text: 'Open https://coinfair.example/auth/link?token=s3cret to sign in.',
  html: '<p><a href="https://coinfair.example/auth/link?token=s3cret">Sign in</a></p>',
};

describe('outbox mailer', () => {
  it('stores the message undelivered, with the time from the injected clock', async () => {
    const mailer = createOutboxMailer({ db, now, log });
    await mailer.send(loginMail);
    const row = await createOutboxRepository(db).latestFor('ana@example.com', 'email');
    expect(row).toMatchObject({
      channel: 'email',
      recipient: 'ana@example.com',
      subject: loginMail.subject,
      text: loginMail.text,
      html: loginMail.html,
      createdAt: clock,
      deliveredAt: null,
    });
  });

  it('logs one line with recipient and subject, never the body', async () => {
    await createOutboxMailer({ db, now, log }).send({ ...loginMail, subject: 'Say "hi"\nnow' });
    expect(lines).toEqual(['mail to ana@example.com: "Say \\"hi\\"\\nnow"']);
    expect(lines.join('\n')).not.toContain('s3cret');
  });

  it('stores null html for a text-only message', async () => {
    await createOutboxMailer({ db, now, log }).send({ to: 'bo@example.com', subject: 'Hi', text: 'Plain' });
    expect((await createOutboxRepository(db).latestFor('bo@example.com', 'email'))?.html).toBeNull();
  });

  it.each([
    'ana@example.com, eve@example.com',
    'Ana <ana@example.com>',
    'ana@example.com\r\nBcc: eve@example.com',
    'no-at-sign',
    '',
  ])('refuses %j and stores nothing', async (to) => {
    await expect(createOutboxMailer({ db, now, log }).send({ ...loginMail, to })).rejects.toThrow(
      /Not a single e-mail address/,
    );
    expect(await db.sql.get('select count(*) as n from outbox')).toEqual({ n: 0 });
    expect(lines).toEqual([]);
  });
});

describe('outbox SMS sender', () => {
  it('stores the text on the sms channel and logs only its length', async () => {
    await createOutboxSmsSender({ db, now, log }).send({ to: '+4915112345678', text: 'Your code: 482913' });
    expect(await createOutboxRepository(db).latestFor('+4915112345678', 'sms')).toMatchObject({
      channel: 'sms',
      subject: '',
      text: 'Your code: 482913',
      html: null,
      createdAt: clock,
      deliveredAt: null,
    });
    expect(lines).toEqual(['sms to +4915112345678: 17 characters']);
  });

  it.each(['015112345678', '+0151123', '+49 151 12345678', '+4915112345678901'])('refuses %j', async (to) => {
    await expect(createOutboxSmsSender({ db, now, log }).send({ to, text: 'x' })).rejects.toThrow(/E\.164/);
  });
});

describe('outbox repository', () => {
  it('finds the newest message per recipient and channel, and lists a recipient newest first', async () => {
    const mailer = createOutboxMailer({ db, now, log });
    await mailer.send({ to: 'ana@example.com', subject: 'first', text: '1' });
    // Same millisecond: insertion order decides.
    await mailer.send({ to: 'ana@example.com', subject: 'second', text: '2' });
    clock += 1000;
    await mailer.send({ to: 'bo@example.com', subject: 'other person', text: '3' });
    const repo = createOutboxRepository(db);
    const smsRow = await repo.insert({
      channel: 'sms',
      recipient: 'ana@example.com',
      subject: '',
      text: 'not mail',
      html: null,
      createdAt: clock,
      deliveredAt: null,
    });

    expect((await repo.latestFor('ana@example.com', 'email'))?.subject).toBe('second');
    expect((await repo.latestFor('ana@example.com', 'sms'))?.id).toBe(smsRow);
    expect(await repo.latestFor('nobody@example.com', 'email')).toBeUndefined();
    expect((await repo.listFor('ana@example.com')).map((r) => r.text)).toEqual(['not mail', '2', '1']);
    expect(await repo.listFor('ana@example.com', 1)).toHaveLength(1);
  });

  it('stamps a row delivered', async () => {
    const repo = createOutboxRepository(db);
    const id = await repo.insert({
      channel: 'email',
      recipient: 'ana@example.com',
      subject: 's',
      text: 't',
      html: null,
      createdAt: clock,
      deliveredAt: null,
    });
    await repo.markDelivered(id, clock + 5);
    expect((await repo.latestFor('ana@example.com', 'email'))?.deliveredAt).toBe(clock + 5);
  });
});

describe('adapter choice', () => {
  const config = { SMTP_URL: undefined, MAIL_FROM: 'Coinfair <no-reply@coinfair.example>' };

  it('keeps mail in the outbox when SMTP_URL is not set', async () => {
    await createMailer(config, db, log, now).send(loginMail);
    expect((await createOutboxRepository(db).latestFor(loginMail.to, 'email'))?.deliveredAt).toBeNull();
    expect(lines).toEqual(['mail to ana@example.com: "Sign in to Coinfair"']);
  });

  it('keeps SMS in the outbox even when SMTP is configured', async () => {
    const smtp = { ...config, SMTP_URL: 'smtp://127.0.0.1:1' };
    await createSmsSender(smtp, db, log, now).send({ to: '+15550100123', text: 'code' });
    expect((await createOutboxRepository(db).latestFor('+15550100123', 'sms'))?.text).toBe('code');
  });
});
