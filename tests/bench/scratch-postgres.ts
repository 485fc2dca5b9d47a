import { openPostgres } from '../../db/postgres.ts';

// A throwaway PostgreSQL database for a bench run: its URL beside the server's admin URL, and a
// way to run an administrative statement (CREATE/DROP DATABASE) on the admin connection.

export function scratchPostgres(adminUrl: string, name: string) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async admin(statement: string) {
      const admin = openPostgres(adminUrl, { max: 1 });
      try {
        await admin.exec(statement);
      } finally {
        await admin.close();
      }
    },
  };
}
