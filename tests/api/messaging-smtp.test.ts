import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { createMailer } from '../../server/services/messaging/create.ts';
import { createOutboxRepository } from '../../server/services/messaging/outbox.ts';
import { createSmtpMailer, SmtpDeliveryError } from '../../server/services/messaging/smtp.ts';
import { createTestDb, type TestDb } from '../support/test-db.ts';

// The real adapter against a real SMTP server on 127.0.0.1: nodemailer speaks the protocol to
// smtp-server, and mailparser reads back what arrived.

const FROM = 'Coinfair <no-reply@coinfair.example>';
const NOW = 1_800_000_000_000;

interface Received {
  mail: ParsedMail;
  mailFrom: string | undefined;
  rcptTo: string[];
}

interface TestSmtp {
  port: number;
  received: Received[];
  logins: { method: string; username: string | undefined }[];
  close(): Promise<void>;
}

const closers: (() => Promise<void>)[] = [];
let testDb: TestDb;
let db: Database;

beforeEach(async () => {
  testDb = await createTestDb();
  db = testDb.db;
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await testDb.close();
});

async function startSmtp(options: SMTPServerOptions = {}): Promise<TestSmtp> {
  const received: Received[] = [];
  const logins: TestSmtp['logins'] = [];
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    // No TLS unless a test asks for it: the plain cases need no certificate.
    disabledCommands: ['STARTTLS'],
    // Without TLS smtp-server refuses AUTH; the credentials here are test values anyway.
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      logins.push({ method: auth.method, username: auth.username });
      if (auth.username === 'user' && auth.password === 'pass') return callback(null, { user: 'user' });
      return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push({
            mail,
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
          });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
    ...options,
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  closers.push(close);
  return { port, received, logins, close };
}

/** A port nothing listens on: bind one, then let it go. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Accepts TCP connections and never says a word, like a wedged or firewalled server. */
async function silentServer(): Promise<number> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return (server.address() as AddressInfo).port;
}

function mailer(url: string) {
  return createSmtpMailer({ url, from: FROM, db, now: () => NOW });
}

const message = {
  to: 'ana@example.com',
  subject: 'Bestätige deine E-Mail – Coinfair',
  text: 'Open https://coinfair.example/auth/verify?token=abc123 to confirm.',
  html: '<p><a href="https://coinfair.example/auth/verify?token=abc123">Confirm</a> ✓</p>',
};

async function rejection(promise: Promise<unknown>): Promise<SmtpDeliveryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SmtpDeliveryError);
  return error as SmtpDeliveryError;
}

describe('SMTP mailer', () => {
  it('delivers from, to, subject, text and html, and records the message as delivered', async () => {
    const smtp = await startSmtp();
    await mailer(`smtp://user:pass@127.0.0.1:${smtp.port}`).send(message);

    expect(smtp.received).toHaveLength(1);
    const [{ mail, mailFrom, rcptTo }] = smtp.received as [Received];
    expect(mailFrom).toBe('no-reply@coinfair.example');
    expect(rcptTo).toEqual(['ana@example.com']);
    expect(mail.from?.value).toEqual([{ name: 'Coinfair', address: 'no-reply@coinfair.example' }]);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value : undefined).toEqual([
      { name: '', address: 'ana@example.com' },
    ]);
    expect(mail.subject).toBe(message.subject);
    expect(mail.text?.trim()).toBe(message.text);
    expect(mail.html).toBe(message.html);
    expect(smtp.logins).toEqual([{ method: 'PLAIN', username: 'user' }]);

    expect(await createOutboxRepository(db).latestFor('ana@example.com', 'email')).toMatchObject({
      subject: message.subject,
      text: message.text,
      html: message.html,
      createdAt: NOW,
      deliveredAt: NOW,
    });
  });

  it('sends a text-only message as text/plain', async () => {
    const smtp = await startSmtp();
    await mailer(`smtp://127.0.0.1:${smtp.port}`).send({ to: 'bo@example.com', subject: 'Hi', text: 'Plain' });
    const mail = smtp.received[0]?.mail;
    expect(mail?.text?.trim()).toBe('Plain');
    expect(mail?.html).toBe(false);
    expect(smtp.logins).toEqual([]);
  });

  it('signs in with AUTH PLAIN when the server requires it', async () => {
    const smtp = await startSmtp({ authOptional: false, authMethods: ['PLAIN'] });
    await mailer(`smtp://user:pass@127.0.0.1:${smtp.port}`).send(message);
    expect(smtp.logins).toEqual([{ method: 'PLAIN', username: 'user' }]);
    expect(smtp.received).toHaveLength(1);
  });

  it('fails on wrong credentials, naming the server and not the password', async () => {
    const smtp = await startSmtp({ authOptional: false, authMethods: ['PLAIN'] });
    const password = 'wrong-Pa55word';
    const error = await rejection(mailer(`smtp://user:${password}@127.0.0.1:${smtp.port}`).send(message));
    expect(error.message).toContain(`SMTP server 127.0.0.1:${smtp.port} failed`);
    expect(error.message).not.toContain(password);
    expect(error.message).toContain('535 Invalid username or password');
    expect(JSON.stringify(error)).not.toContain(password);
    expect(error.cause).toBeUndefined();
    expect(error.code).toBe('EAUTH');
    expect(error.responseCode).toBe(535);
    expect(smtp.received).toEqual([]);
    expect((await createOutboxRepository(db).latestFor('ana@example.com', 'email'))?.deliveredAt).toBeNull();
  });

  it('scrubs the credentials even when a server repeats them in its answer', async () => {
    const smtp = await startSmtp({
      authOptional: false,
      onAuth(auth, _session, callback) {
        callback(Object.assign(new Error(`No account ${auth.username} with ${auth.password}`), { responseCode: 535 }));
      },
    });
    const url = `smtp://mailer-account:${encodeURIComponent('p@ss word!')}@127.0.0.1:${smtp.port}`;
    const error = await rejection(mailer(url).send(message));
    expect(error.message).toContain('535 No account *** with ***');
  });

  it('rejects with the server answer when the recipient is refused, and marks nothing delivered', async () => {
    const smtp = await startSmtp({
      onRcptTo(address, _session, callback) {
        if (address.address === 'gone@example.com') {
          return callback(Object.assign(new Error('No such user here'), { responseCode: 550 }));
        }
        return callback();
      },
    });
    const error = await rejection(mailer(`smtp://127.0.0.1:${smtp.port}`).send({ ...message, to: 'gone@example.com' }));
    expect(error.message).toMatch(
      new RegExp(`^Sending mail through SMTP server 127\\.0\\.0\\.1:${smtp.port} failed: `),
    );
    expect(error.message).toContain('550 No such user here');
    expect(error.responseCode).toBe(550);
    expect(error.permanent).toBe(true);
    expect(smtp.received).toEqual([]);
    // The attempt stays visible to operators, undelivered.
    expect(await createOutboxRepository(db).listFor('gone@example.com')).toMatchObject([{ deliveredAt: null }]);
  });

  it('rejects at once when nothing listens on the port', async () => {
    const port = await closedPort();
    const started = Date.now();
    const error = await rejection(mailer(`smtp://user:pass@127.0.0.1:${port}`).send(message));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error.message).toContain(`SMTP server 127.0.0.1:${port} failed`);
    expect(error.message).toContain('ECONNREFUSED');
    expect((await createOutboxRepository(db).latestFor('ana@example.com', 'email'))?.deliveredAt).toBeNull();
  });

  it('gives up on a server that never greets, within the greeting timeout', async () => {
    const port = await silentServer();
    const started = Date.now();
    // The production default is 10 s; the URL's query shortens it for the test.
    const error = await rejection(mailer(`smtp://127.0.0.1:${port}?greetingTimeout=300`).send(message));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(3000);
    expect(error.message).toContain(`SMTP server 127.0.0.1:${port} failed`);
    expect(error.code).toBe('ETIMEDOUT');
  });

  it('verifies the certificate on STARTTLS unless the URL says otherwise', async () => {
    // smtp-server's built-in certificate is self-signed (and expired), like a spoofed server's.
    const smtp = await startSmtp({ disabledCommands: [] });
    const error = await rejection(mailer(`smtp://127.0.0.1:${smtp.port}`).send(message));
    expect(error.message).toMatch(/certificate/i);
    expect(smtp.received).toEqual([]);

    await mailer(`smtp://user:pass@127.0.0.1:${smtp.port}?tls.rejectUnauthorized=false`).send(message);
    expect(smtp.received).toHaveLength(1);
  });

  it('refuses an address list before talking to the server', async () => {
    const smtp = await startSmtp();
    await expect(
      mailer(`smtp://127.0.0.1:${smtp.port}`).send({ ...message, to: 'ana@example.com,eve@example.com' }),
    ).rejects.toThrow(/Not a single e-mail address/);
    expect(smtp.received).toEqual([]);
  });

  it('refuses an unparsable SMTP_URL without echoing it', () => {
    expect(() => mailer('smtp://user:hunter22@[bad')).toThrow(/^SMTP_URL is not a valid URL/);
    expect(() => mailer('smtp://user:hunter22@[bad')).not.toThrow(/hunter22/);
  });
});

describe('createMailer', () => {
  it('sends through SMTP when SMTP_URL is set', async () => {
    const smtp = await startSmtp();
    const mail = createMailer(
      { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: FROM },
      db,
      { info() {} },
      () => NOW,
    );
    await mail.send(message);
    expect(smtp.received).toHaveLength(1);
    expect((await createOutboxRepository(db).latestFor(message.to, 'email'))?.deliveredAt).toBe(NOW);
  });
});
