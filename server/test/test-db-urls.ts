import pg from 'pg';
import { roleOfUrl } from '../db/migrate.ts';

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * The test databases' roles on a server. With DATABASE_OWNER_URL the owner creates, migrates
 * and drops them and the suite serves as DATABASE_URL's least-privilege role, as in production;
 * without it one role does everything.
 */
export function testDatabaseRoles(): { appUrl: string; ownerUrl: string; appRole?: string } {
  const appUrl = process.env.DATABASE_URL;
  if (!appUrl) throw new Error('DATABASE_URL is not set');
  const ownerUrl = process.env.DATABASE_OWNER_URL || appUrl;
  const appRole = roleOfUrl(appUrl);
  return ownerUrl === appUrl || roleOfUrl(ownerUrl) === appRole
    ? { appUrl, ownerUrl }
    : { appUrl, ownerUrl, appRole };
}

/** Whether the tests run on a PostgreSQL server with the owner and the app as two roles. */
export const onTwoRoles = (): boolean =>
  Boolean(process.env.DATABASE_URL) && Boolean(testDatabaseRoles().appRole);

/**
 * Drops a test database as its owner, with any connection left. A connection the app role has
 * just closed may still have its backend for a moment, and `with (force)` would then have to
 * signal another role's process, which the owner may not (a two-role server): it is asked
 * again until those backends have gone, at most 30 s.
 */
export async function dropTestDatabase(ownerUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await client.query(`drop database if exists ${name} with (force)`);
        return;
      } catch (error) {
        const otherRole = String(error).includes('member of the role whose process');
        if (!otherRole || attempt >= 150) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  } finally {
    await client.end();
  }
}
