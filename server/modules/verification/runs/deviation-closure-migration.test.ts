import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/db.ts';
import { migrate } from '#server/db/migrate.ts';
import { seededBefore } from '#server/test/migration-db.ts';

/*
 * Migration 20261205100200 on a database that already holds a study with deviations: every
 * deviation becomes version 1 (Being Built) of its Deviation record, an Open one stays Open and
 * a Closed one Closed; the study keeps the failed-run rule it was started under (resetCount),
 * so its outcome does not change after the fact.
 */

const MIGRATION = '20261205100200_deviation_closure_and_failed_runs.sql';
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions

let db: Db;
let facilityId: number;
let studyId: number;
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
  studyId = study!.id;
  const [run] = await db.query<{ id: number }>(
    `insert into study_runs (facility_id, study_id, sequence) values ($1, $2, 1) returning id`,
    [facilityId, studyId],
  );
  await db.query(
    `insert into deviations (facility_id, seq, run_id, kind, title, root_cause, status, closed_at)
     values ($1, 1, $2, 'process', 'Hose leak', null, 'Open', null),
            ($1, 2, $2, 'nonProcess', 'Wrong standard', 'Expired', 'Closed', now())`,
    [facilityId, run!.id],
  );
  await migrate(db);
  // Migrating a new embedded database from scratch takes a minute on a busy 2-core machine.
}, 240_000);
afterAll(async () => {
  await db?.close();
});

describe('deviations and studies before the migration', () => {
  it('each deviation is version 1 of its record, not approved, its status kept', async () => {
    const rows = await db.query<Row>(
      `select d.status, v.version_number, v.status as record_status, v.title,
              v.content ->> 'number' as number, v.content ->> 'rootCause' as root_cause
         from deviations d
         join controlled_versions v on v.facility_id = d.facility_id
          and v.document_type = 'Deviation' and v.document_id = d.id
        where d.facility_id = $1 order by d.seq`,
      [facilityId],
    );
    expect(rows).toEqual([
      {
        status: 'Open',
        version_number: 1,
        record_status: 'BeingBuilt',
        title: 'DEV-0001 Hose leak',
        number: 'DEV-0001',
        root_cause: null,
      },
      {
        status: 'Closed',
        version_number: 1,
        record_status: 'BeingBuilt',
        title: 'DEV-0002 Wrong standard',
        number: 'DEV-0002',
        root_cause: 'Expired',
      },
    ]);
  });

  it('a study started before keeps the rule it ran under: a failed run resets the count', async () => {
    const [study] = await db.query<Row>('select failed_run_policy from studies where id = $1', [
      studyId,
    ]);
    expect(study!.failed_run_policy).toBe('resetCount');
  });
});
