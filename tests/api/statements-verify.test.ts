import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createUser } from '../support/users.ts';

// `node scripts/verify-statement.ts statement.json [--key key.json]` (issue 24; docs/trust.md):
// a statement saved from the API and the key saved from /.well-known are checked by a separate
// Node process that has neither the database nor the network; one line, exit 0 valid, 1 invalid,
// 2 for a wrong call.

const run = promisify(execFile);
const SCRIPT = new URL('../../scripts/verify-statement.ts', import.meta.url).pathname;

let t: TestApp;
let dir: string;
let saved: { data: Record<string, unknown> };
let keyFile: string;

const write = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
};

/** The script's exit code and its one line (stdout when valid, stderr otherwise). */
async function verify(...args: string[]): Promise<{ code: number; line: string }> {
  try {
    const { stdout } = await run(process.execPath, [SCRIPT, ...args], { env: { PATH: process.env.PATH ?? '' } });
    return { code: 0, line: stdout.trim() };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, line: failed.stderr.trim() };
  }
}

beforeAll(async () => {
  t = await createTestApp({ clock: { now: Date.UTC(2026, 9, 3) } });
  const person = await createUser(t, { funded: { BTC: 123_456 } });
  t.clock.now = Date.UTC(2026, 10, 15);
  const session = await person.session();
  saved = await (await session.get('/rest/v1/statements/month?period=2026-10')).json();
  dir = mkdtempSync(join(tmpdir(), 'coinfair-statement-'));
  keyFile = write('key.json', await (await t.send('/.well-known/coinfair-statement-key')).json());
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

// Each case starts Node once or more; on a loaded machine that is seconds, not the default 5.
describe('scripts/verify-statement.ts', { timeout: 30_000 }, () => {
  it('accepts the statement as the API answered it, against the published key', async () => {
    const { code, line } = await verify(write('statement.json', saved), '--key', keyFile);
    expect(code).toBe(0);
    expect(line).toMatch(
      /^VALID: monthly statement 2026-10 of usr_\w+ \(\w+\) from http:\/\/localhost, signed by key ed25519:/,
    );
    expect(line.split('\n')).toHaveLength(1);
  });

  it('accepts its `data` alone, and without --key names the key it carries for comparison', async () => {
    const { code, line } = await verify(write('data.json', saved.data));
    expect(code).toBe(0);
    expect(line).toContain('compare it with http://localhost/.well-known/coinfair-statement-key');
  });

  it('refuses a statement changed after signing', async () => {
    const tampered = structuredClone(saved);
    const statement = tampered.data.statement as { currencies: { closing: string; credits: string }[] };
    const btc = statement.currencies[0] as { closing: string; credits: string };
    btc.credits = '1.00123456';
    btc.closing = '1.00123456';
    const { code, line } = await verify(write('tampered.json', tampered), '--key', keyFile);
    expect(code).toBe(1);
    expect(line).toMatch(/^INVALID: the signature does not match the statement/);
  });

  it('refuses a statement signed by another key than the published one', async () => {
    const other = write('other.pem', generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }));
    const { code, line } = await verify(write('statement.json', saved), '--key', other);
    expect(code).toBe(1);
    expect(line).toMatch(/^INVALID: the signature does not match/);
    const wrongKid = await verify(write('statement.json', saved), '--key', write('empty-keys.json', { keys: [] }));
    expect(wrongKid.code).toBe(1);
    expect(wrongKid.line).toContain('which the key file does not hold');
  });

  it('refuses a file carrying a key that is not the one it names', async () => {
    const swapped = structuredClone(saved);
    const { publicKey } = generateKeyPairSync('ed25519');
    swapped.data.publicKey = publicKey.export({ format: 'jwk' }).x;
    const { code, line } = await verify(write('swapped.json', swapped));
    expect(code).toBe(1);
    expect(line).toContain('is not key ed25519:');
  });

  it('answers a wrong call with its usage, and an unreadable file as such: exit 2', async () => {
    expect((await verify()).code).toBe(2);
    expect((await verify(write('statement.json', saved), '--key')).line).toContain('usage:');
    const missing = await verify(join(dir, 'nowhere.json'));
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.line).toContain('cannot read');
    expect((await verify(write('junk.json', 'not json'))).code).toBe(1);
  });
});
