import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/db.ts';
import { migrate } from '#server/db/migrate.ts';
import { seededBefore } from '#server/test/migration-db.ts';

/*
 * Migration 20261127100100 on a database that already holds runs: a started run pins the
 * cleaning inspection settings version approved at its start (here, started before the first
 * approval known: the earliest approved); a run not started pins nothing; a visual result
 * recorded before inspection records is kept.
 */

const MIGRATION = '20261127100100_run_inspections.sql';
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions

let db: Db;
let facilityId: number;
beforeAll(async () => {
  ({ db, facilityId } = await seededBefore(MIGRATION));
  const [protocol] = await db.query<{ id: number }>(
    `insert into protocols (facility_id, protocol_number, name) values ($1, 'PR-1', 'P') returning id`,
    [facilityId],
  );
  const [study] = await db.query<{ id: number }>(
    `insert into studies (facility_id, seq, title, study_type, protocol_id, protocol_version_number,
                          protocol_content)
     values ($1, 1, 'S', 'Validation', $2, 1, '{}') returning id`,
    [facilityId, protocol!.id],
  );
  await db.query(
    `insert into study_runs (facility_id, study_id, sequence, started_at, visual_result)
     values ($1, $2, 1, '2020-01-01T08:00:00Z', 'Pass'), ($1, $2, 2, null, null)`,
    [facilityId, study!.id],
  );
  await migrate(db);
  // Migrating a new embedded database from scratch takes a minute on a busy 2-core machine.
}, 240_000);
afterAll(async () => {
  await db?.close();
});

describe('runs get their inspection settings pinned', () => {
  it('a started run pins the approved version, a run not started nothing', async () => {
    const runs = await db.query<Row>(
      `select sequence, inspection_settings_version, inspection_settings, inspection, visual_result
         from study_runs where facility_id = $1 order by sequence`,
      [facilityId],
    );
    const [approved] = await db.query<Row>(
      `select version_number, content from controlled_versions
        where facility_id = $1 and document_type = 'CleaningInspectionSettings' and status = 'Approved'`,
      [facilityId],
    );
    expect(runs).toEqual([
      {
        sequence: 1,
        inspection_settings_version: approved!.version_number,
        inspection_settings: approved!.content,
        inspection: null,
        visual_result: 'Pass',
      },
      {
        sequence: 2,
        inspection_settings_version: null,
        inspection_settings: null,
        inspection: null,
        visual_result: null,
      },
    ]);
  });
});
