import { entityDef } from '#core/entities/defs/index.ts';
import { testActor as actor } from './factories.ts';
import type { TestDb } from './test-db.ts';
import { createEntity } from '#server/entities/entity-write.ts';

/**
 * An equipment item made before versions were kept: written with the keeping trigger off, then
 * given the one version the backfill (keep_record_versions) gave such records, at their last
 * change. Its history begins at `updatedAt`; it existed from `createdAt`.
 */
export async function madeBeforeHistory(
  db: TestDb,
  scope: { planId: number; facilityId: number },
  name: string,
  createdAt: string,
  updatedAt: string,
): Promise<number> {
  const owner = await db.owner();
  await owner.exec('alter table equipment disable trigger keep_record_versions');
  let id: number;
  try {
    ({ id } = await db.transaction((tx) =>
      createEntity(tx, {
        actor,
        def: entityDef('equipment'),
        scope,
        values: { name, surfaceArea: { value: 2, unit: 'sqm' } },
      }),
    ));
    await owner.query(`update equipment set created_at = $2, updated_at = $3 where id = $1`, [
      id,
      createdAt,
      updatedAt,
    ]);
  } finally {
    await owner.exec('alter table equipment enable trigger keep_record_versions');
  }
  await owner.query(
    `insert into record_versions (table_name, record_id, facility_id, version, row_data, recorded_at)
     select 'equipment', id, facility_id, version, to_jsonb(e), updated_at from equipment e where id = $1`,
    [id],
  );
  return id;
}
