import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { equipmentTrainsDef } from '#core/entities/defs/index.ts';
import type { Db, SqlValue } from '#server/db/db.ts';
import { openPostgres } from '#server/db/postgres-db.ts';
import { migrate } from '#server/db/migrate.ts';
import {
  allEntitiesInForce,
  registerControlledEntities,
} from '#server/records/controlled-entities.ts';
import { brokenRecords } from '#server/records/record-integrity.ts';
import { createEmptyServerDatabase } from '#server/test/empty-server-db.ts';
import { insertEquipment, seededBefore } from '#server/test/migration-db.ts';

/*
 * Migration 20261221103001 on a database whose equipment trains are plain master data: each
 * train, archived or not, becomes its version 1 Approved with what it held, so that no
 * production, limit or coverage changes, and the record's row equals its approved content (the
 * integrity check reads it as intact, not as broken). On the embedded database, and on a new
 * database of the PostgreSQL server when the suite runs on one (as its owner, who migrates).
 */

const MIGRATION = '20261221103001_equipment_trains_controlled.sql';

interface Target {
  name: string;
  /** An empty database, and what removes it after the test (the embedded one goes with db). */
  open: () => Promise<{ db?: Db; drop?: () => Promise<void> }>;
}

const TARGETS: Target[] = [
  { name: 'the embedded database', open: async () => ({}) },
  ...(process.env.DATABASE_URL
    ? [
        {
          name: 'a PostgreSQL server',
          open: async () => {
            const server = await createEmptyServerDatabase();
            return { db: await openPostgres(server.ownerUrl), drop: server.drop };
          },
        },
      ]
    : []),
];

describe.each(TARGETS)('migration 20261221103001 on $name', ({ open }) => {
  let db: Db;
  let drop: (() => Promise<void>) | undefined;
  let facilityId: number;
  const id = {} as Record<'E1' | 'E2' | 'live' | 'retired', number>;
  const one = async (sql: string, params: SqlValue[] = []) =>
    ((await db.query<{ id: number }>(sql, params))[0] as { id: number }).id;

  beforeAll(async () => {
    const empty = await open();
    drop = empty.drop;
    ({ db, facilityId } = await seededBefore(MIGRATION, empty.db));
    Object.assign(id, await insertEquipment(db, facilityId, ['E1', 'E2']));
    id.live = await one(
      `insert into equipment_trains (facility_id, name, equipment_ids, description)
       values ($1, 'Granulation', $2, 'Blender then mill') returning id`,
      [facilityId, [id.E2, id.E1]],
    );
    id.retired = await one(
      `insert into equipment_trains (facility_id, name, equipment_ids, archived_at, archive_reason)
       values ($1, 'Old line', $2, now(), 'Scrapped') returning id`,
      [facilityId, [id.E1]],
    );
    await migrate(db);
    registerControlledEntities();
    // Migrating a new embedded database from scratch takes a minute on a busy 2-core machine.
  }, 240_000);
  afterAll(async () => {
    await db?.close();
    await drop?.();
  });

  it('makes each train, archived or not, version 1 Approved with what it held', async () => {
    const versions = await db.query<Record<string, unknown>>(
      `select document_id, version_number, status, signature_state, content, title,
              approved_at is not null as approved
         from controlled_versions where document_type = 'EquipmentTrain' order by document_id`,
    );
    expect(versions).toEqual([
      {
        document_id: id.live,
        version_number: 1,
        status: 'Approved',
        signature_state: 'Signed',
        content: {
          name: 'Granulation',
          equipmentIds: [id.E2, id.E1],
          description: 'Blender then mill',
        },
        title: 'Granulation',
        approved: true,
      },
      {
        document_id: id.retired,
        version_number: 1,
        status: 'Approved',
        signature_state: 'Signed',
        content: { name: 'Old line', equipmentIds: [id.E1], description: null },
        title: 'Old line',
        approved: true,
      },
    ]);
  });

  it('leaves the trains in force as they were, and reads them as intact', async () => {
    const inForce = await allEntitiesInForce(db, equipmentTrainsDef, facilityId);
    expect(inForce.map((t) => [t.id, t.equipmentIds])).toEqual([[id.live, [id.E2, id.E1]]]);
    // No signature binds these versions: the migration's approval is what the check accepts.
    const broken = await brokenRecords(db, randomBytes(32), facilityId, {
      documentType: 'EquipmentTrain',
      documentIds: [id.live, id.retired],
    });
    expect([...broken.values()]).toEqual([]);
  });
});
