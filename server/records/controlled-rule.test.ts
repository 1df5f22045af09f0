import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.ts';
import { useFacilityTestServer } from '../test/facility-test-file.ts';
import { testActor } from '../test/factories.ts';
import { latestVersion, type ControlledRef } from './controlled.ts';
import { writeControlledRule, type ControlledRuleWrite } from './controlled-rule.ts';

/*
 * The controlled-rule writer holds the optimistic lock itself: a write from a stale version is
 * refused whatever its caller checked, and leaves neither a version nor an audit row; a write
 * keeps a history row and starts the version being built.
 */

const t = useFacilityTestServer();
let db: Db;
let ref: ControlledRef;
beforeAll(async () => {
  db = t.server.db;
  const [policy] = await db.query<{ id: number }>(
    `select id from cleaning_limit_policies where facility_id = $1 and residue_type = 'Chemical'`,
    [t.facilityId],
  );
  ref = {
    planId: t.planId,
    facilityId: t.facilityId,
    documentType: 'CleaningLimitPolicy',
    documentId: policy!.id,
  };
});

const write = (version: number, swabSampleLimit: number): ControlledRuleWrite => ({
  actor: testActor,
  ref,
  table: 'cleaning_limit_policies',
  column: 'policy',
  version,
  content: { swabSampleLimit },
  title: 'Chemical cleaning limit policy',
  audit: {
    domain: 'CleaningPolicy',
    reason: 'Tighter swab limit',
    oldValues: {},
    newValues: { swabSampleLimit },
  },
});

const audits = async () =>
  (
    await db.query<{ n: number }>(
      `select count(*)::int as n from audit_log where domain = 'CleaningPolicy' and entity_id = $1`,
      [String(ref.documentId)],
    )
  )[0]!.n;

describe('the controlled-rule writer', () => {
  it('refuses a stale version and keeps a history row per write', async () => {
    const before = await audits();
    const stale = db.transaction((tx) => writeControlledRule(tx, write(7, 3)));
    await expect(stale).rejects.toMatchObject({ errName: 'VersionConflictError' });
    expect(await audits()).toBe(before);
    expect((await db.transaction((tx) => latestVersion(tx, ref)))?.status).toBe('Approved');

    const written = await db.transaction((tx) => writeControlledRule(tx, write(1, 5)));
    expect(written).toMatchObject({
      version: 2,
      state: { status: 'BeingBuilt', versionNumber: 2 },
    });
    expect(await audits()).toBe(before + 1);
    const kept = await db.query<{ version: number; swab: number | null }>(
      `select version, (row_data -> 'policy' ->> 'swabSampleLimit')::int as swab
         from record_versions where table_name = 'cleaning_limit_policies' and record_id = $1
        order by id`,
      [ref.documentId],
    );
    expect(kept.at(-1)).toEqual({ version: 2, swab: 5 });
  });
});
