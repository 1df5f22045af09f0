import type { Db } from '../db/db.ts';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { openPgliteBefore } from './empty-pglite.ts';
import { seedFirstStart } from '../db/seed.ts';

/**
 * A migration's test database: embedded unless another empty one is given, migrated up to (not
 * including) `migration`, seeded as a first start, with its first facility; the test writes the
 * old data, then runs `migrate(db)`.
 */
export async function seededBefore(
  migration: string,
  empty?: Db,
): Promise<{ db: Db; facilityId: number }> {
  // A database given empty is migrated here; openPgliteBefore's comes migrated.
  if (empty)
    await migrate(empty, { migrations: loadMigrations().filter((m) => m.name < migration) });
  const db = empty ?? (await openPgliteBefore(migration));
  await seedFirstStart(db, { ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined });
  const [f] = await db.query<{ id: number }>('select id from facilities order by id limit 1');
  return { db, facilityId: f!.id };
}

/** Items of equipment of 1 sqm each, written as an old schema holds them: their ids by name. */
export async function insertEquipment<N extends string>(
  db: Db,
  facilityId: number,
  names: readonly N[],
): Promise<Record<N, number>> {
  const ids = {} as Record<N, number>;
  for (const name of names) {
    const [row] = await db.query<{ id: number }>(
      `insert into equipment (facility_id, name, surface_area)
       values ($1, $2, '{"value": 1, "unit": "sqm"}') returning id`,
      [facilityId, name],
    );
    ids[name] = row!.id;
  }
  return ids;
}
