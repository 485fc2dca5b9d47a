import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { openPostgres } from '../../db/postgres.ts';
import { POSTGRES_ADMIN_URL, postgresUrlFor } from './postgres.ts';

// The PostgreSQL projects' template (vitest.config.ts): one migrated and seeded database per run,
// which every test clones (tests/support/test-db.ts). Its name carries the runner's pid, so the
// teardown drops the template and every clone by prefix, and a later run sweeps what a killed run
// left behind.

declare module 'vitest' {
  export interface ProvidedContext {
    templatePostgresDb: string;
  }
}

const PREFIX = 'coinfair_tpl_';
const run = promisify(execFile);

async function databasesLike(pattern: string): Promise<string[]> {
  const admin = openPostgres(POSTGRES_ADMIN_URL, { max: 1 });
  try {
    const rows = await admin.all<{ name: string }>('SELECT datname AS name FROM pg_database WHERE datname LIKE $1', [
      pattern,
    ]);
    return rows.map((row) => row.name);
  } finally {
    await admin.close();
  }
}

async function drop(names: string[]): Promise<void> {
  const admin = openPostgres(POSTGRES_ADMIN_URL, { max: 1 });
  try {
    for (const name of names) await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.close();
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Databases of runs whose runner is gone (killed, or crashed before its teardown). */
async function sweepAbandoned(): Promise<void> {
  const names = await databasesLike(`${PREFIX}%`);
  await drop(names.filter((name) => !alive(Number(name.slice(PREFIX.length).split('_')[0]))));
}

// Every PostgreSQL project of a run shares one template: the setup runs once per project, and
// the last project's teardown drops it.
let template: Promise<string> | undefined;
let users = 0;

async function createTemplate(): Promise<string> {
  await sweepAbandoned();
  const name = `${PREFIX}${process.pid}_${Date.now().toString(36)}`;
  await drop([name]);
  const admin = openPostgres(POSTGRES_ADMIN_URL, { max: 1 });
  try {
    await admin.exec(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
  await run(process.execPath, [`${import.meta.dirname}/seed-template.ts`, postgresUrlFor(name)], {
    env: { ...process.env, COINFAIR_DIALECT: 'postgres' },
  });
  return name;
}

export default async function setup(project: TestProject) {
  template ??= createTemplate();
  users += 1;
  const name = await template;
  project.provide('templatePostgresDb', name);
  return async () => {
    users -= 1;
    // The template and every clone of this run.
    if (users === 0) await drop(await databasesLike(`${name}%`));
  };
}
