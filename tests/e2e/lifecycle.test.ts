import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createSqliteTestDb } from '../support/test-db.ts';

// `npm start` as an operator meets it: its own process, configuration from the environment,
// a clean stop on SIGTERM.

const root = join(import.meta.dirname, '..', '..');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, [join(root, 'scripts/start.ts')], {
    cwd: root,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', () => {
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url) resolve(url);
    });
    void exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  // Tests that expect an early exit never await `listening`.
  listening.catch(() => {});
  return { child, listening, exited, output: () => ({ stdout, stderr }) };
}

describe('npm start', () => {
  it('refuses a bad configuration with a message naming the variable', async () => {
    const server = start({ PORT: 'eighty' });
    expect(await server.exited).toBe(1);
    expect(server.output().stderr).toContain('PORT="eighty"');
  });

  it('says in one line which port is busy and how to choose another, without a stack trace', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    const db = createSqliteTestDb();
    try {
      const server = start({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: db.path });
      expect(await server.exited).toBe(1);
      const { stderr } = server.output();
      expect(stderr).toContain(`Port ${port} is already in use on 127.0.0.1`);
      expect(stderr).toContain(`PORT=${port + 1} npm start`);
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      blocker.close();
      db.close();
    }
  });

  it('stops cleanly on SIGTERM: sockets closed as going away, exit code 0', async () => {
    const db = createSqliteTestDb();
    try {
      const server = start({ DATABASE_URL: db.path });
      const url = await server.listening;
      const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`);
      await new Promise((resolve, reject) => {
        ws.once('open', resolve);
        ws.once('error', reject);
      });
      const closeCode = new Promise<number>((resolve) => ws.once('close', resolve));
      server.child.kill('SIGTERM');
      expect(await closeCode).toBe(1001);
      expect(await server.exited).toBe(0);
      expect(server.output().stdout).toContain('SIGTERM: finishing in-flight requests');
    } finally {
      db.close();
    }
  });

  it('creates, migrates and seeds a new database on first start', async () => {
    const path = join(root, 'tests', '.tmp', `first-start-${process.pid}.db`);
    rmSync(path, { force: true });
    const server = start({ DATABASE_URL: path });
    const url = await server.listening;
    expect(server.output().stdout).toContain('demo users and offers seeded');
    const res = await fetch(`${url}/rest/v1/countries?limit=1`);
    expect((await res.json()).meta.total).toBe(249);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(path)).toBe(true);
    // A second start finds the data and seeds nothing.
    const copy = `${path}.again.db`;
    copyFileSync(path, copy);
    const again = start({ DATABASE_URL: copy });
    await again.listening;
    expect(again.output().stdout).not.toContain('seeded');
    again.child.kill('SIGTERM');
    await again.exited;
  });
});
