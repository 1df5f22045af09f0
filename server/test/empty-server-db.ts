import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { roleOfUrl } from '../db/migrate.ts';
import { dropTestDatabase, testDatabaseRoles, withDatabase } from './test-db-urls.ts';

/**
 * A new, empty database on the server of DATABASE_URL (a restore's or a move's target), made by
 * the owner role; `drop` removes it with any connection left.
 */
export async function createEmptyServerDatabase() {
  const { ownerUrl, appUrl, appRole } = testDatabaseRoles();
  const name = `carryover_empty_${randomBytes(4).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: ownerUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  return {
    ownerUrl: withDatabase(ownerUrl, name),
    appUrl: withDatabase(appUrl, name),
    /** The app role to grant, when the owner and the app are two roles. */
    appRole: appRole ? roleOfUrl(appUrl) : undefined,
    drop: () => dropTestDatabase(ownerUrl, name),
  };
}
