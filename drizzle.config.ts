import { defineConfig } from 'drizzle-kit';
import { schemaDialect } from './db/schema/dialect.ts';

// One schema (db/schema/), one folder of migrations per engine: `npm run db:generate` writes the
// SQLite ones, `COINFAIR_DIALECT=postgres npm run db:generate` the PostgreSQL ones (issue 17).
const postgres = schemaDialect() === 'postgres';

export default defineConfig(
  postgres
    ? { dialect: 'postgresql', schema: './db/schema/index.ts', out: './db/migrations-pg' }
    : { dialect: 'sqlite', schema: './db/schema/index.ts', out: './db/migrations' },
);
