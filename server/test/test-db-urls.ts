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
