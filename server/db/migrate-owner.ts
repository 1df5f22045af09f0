import type { Config } from '../config.ts';
import type { Db } from './db.ts';
import { migrate, roleOfUrl } from './migrate.ts';
import { openPostgres } from './postgres-db.ts';

/**
 * With DATABASE_OWNER_URL the owner migrates and grants DATABASE_URL's role what the app
 * needs, and the app then serves as that role; without it `db`'s one role migrates.
 */
export async function migrateAsOwner(
  db: Db,
  config: Pick<Config, 'DATABASE_OWNER_URL' | 'DATABASE_URL'>,
): Promise<string[]> {
  if (!config.DATABASE_OWNER_URL || !config.DATABASE_URL) return migrate(db);
  const owner = await openPostgres(config.DATABASE_OWNER_URL, { max: 1 });
  try {
    return await migrate(owner, { appRole: roleOfUrl(config.DATABASE_URL) });
  } finally {
    await owner.close();
  }
}
