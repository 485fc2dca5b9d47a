import { afterEach, describe, expect, it } from 'vitest';
import { CommandError, userCommands } from '../../server/admin/user-commands.ts';
import { createAccountsRepository } from '../../server/services/accounts/repository.ts';
import { createSessionService } from '../../server/services/accounts/sessions.ts';
import { systemContext } from '../../server/services/context.ts';
import { createTestDb, type TestDb } from '../support/test-db.ts';

let testDb: TestDb;
afterEach(() => testDb?.close());

async function setup() {
  testDb = await createTestDb();
  const repo = createAccountsRepository(testDb.db);
  const sessions = createSessionService({ repo, now: Date.now });
  return { commands: userCommands(testDb.db), repo, sessions };
}

describe('npm run admin -- user:…', () => {
  it('creates a verified account with a checked password', async () => {
    const { commands, repo } = await setup();
    expect(await commands.create('Ops@Example.org', 'Strong-pass-42', 'opsdesk')).toBe(
      'Created ops@example.org (username opsdesk, e-mail verified).',
    );
    expect(await repo.userByEmail('ops@example.org')).toMatchObject({ username: 'opsdesk', isEmailVerified: true });
    await expect(commands.create('ops@example.org', 'Strong-pass-42')).rejects.toThrow('exists already');
    await expect(commands.create('x@example.org', 'weak')).rejects.toThrow(CommandError);
    await expect(commands.create('x@example.org', 'Password123!')).rejects.toThrow('leaked');
    await expect(commands.create('not-an-email', 'Strong-pass-42')).rejects.toThrow('Not a valid');
  });

  it('grants and removes roles, ending the sessions so new rights need a new sign-in', async () => {
    const { commands, repo, sessions } = await setup();
    const buyer = await repo.userByEmail('buyer@example.com');
    const { token } = await sessions.create(systemContext('test'), {
      userId: buyer?.id ?? 0,
      client: { ip: '127.0.0.1', userAgent: 'test' },
    });
    expect(await commands.role('buyer@example.com', 'moderator')).toBe(
      'buyer@example.com: moderator on; 1 session(s) ended.',
    );
    expect((await repo.userByEmail('buyer@example.com'))?.role).toBe('moderator');
    expect(await sessions.validate(token)).toBeNull();
    await commands.role('buyer@example.com', 'moderator', 'off');
    expect((await repo.userByEmail('buyer@example.com'))?.role).toBe('user');
    await commands.role('buyer@example.com', 'merchant', 'on');
    expect((await repo.userByEmail('buyer@example.com'))?.isMerchant).toBe(true);
    await expect(commands.role('buyer@example.com', 'king')).rejects.toThrow('Unknown role');
    await expect(commands.role('buyer@example.com', 'vendor', 'maybe')).rejects.toThrow('on or off');
  });

  it('bans (sessions end), suspends and reinstates', async () => {
    const { commands, repo, sessions } = await setup();
    const buyer = await repo.userByEmail('buyer@example.com');
    const { token } = await sessions.create(systemContext('test'), {
      userId: buyer?.id ?? 0,
      client: { ip: '127.0.0.1', userAgent: 'test' },
    });
    expect(await commands.ban('buyer@example.com')).toBe('buyer@example.com: banned; 1 session(s) ended.');
    expect(await sessions.validate(token)).toBeNull();
    await commands.suspend('buyer@example.com');
    expect((await repo.userByEmail('buyer@example.com'))?.status).toBe('suspended');
    await commands.reinstate('buyer@example.com');
    expect((await repo.userByEmail('buyer@example.com'))?.status).toBe('active');
  });

  it('marks an identity verified, which the current user then reports', async () => {
    const { commands, repo } = await setup();
    expect((await repo.userByEmail('buyer@example.com'))?.idVerifiedAt).toBeNull();
    expect(await commands.verifyId('buyer@example.com')).toBe('buyer@example.com: identity marked verified.');
    expect((await repo.userByEmail('buyer@example.com'))?.idVerifiedAt).toEqual(expect.any(Number));
    await expect(commands.verifyId('nobody@example.com')).rejects.toThrow(CommandError);
  });

  it('names the missing account', async () => {
    const { commands } = await setup();
    await expect(commands.verifyEmail('ghost@example.com')).rejects.toThrow(
      'No account with the e-mail address ghost@example.com.',
    );
  });
});
