import type { Db } from '../db/db.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { openEmptyPglite } from './empty-pglite.ts';
import { seedFirstStart } from '../db/seed.ts';

/**
 * A migration's test database: embedded, migrated up to (not including) `migration`, seeded as a
 * first start, with its first facility; the test writes the old data, then runs `migrate(db)`.
 */
export async function seededBefore(migration: string): Promise<{ db: Db; facilityId: number }> {
  const db = await openEmptyPglite();
  await migrate(db, { migrations: loadMigrations().filter((m) => m.name < migration) });
  await seedFirstStart(db, { ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined });
  const [f] = await db.query<{ id: number }>('select id from facilities order by id limit 1');
  return { db, facilityId: f!.id };
}
