import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPolicy, RESIDUE_TYPES } from '#core/limits/policy.ts';
import {
  INSPECTION_SETTINGS_DEFAULTS,
  MICROBIAL_POLICY_DEFAULTS,
} from '#core/schemas/facility-rules.schemas.ts';
import type { Db } from '#server/db/db.ts';
import { migrate } from '#server/db/migrate.ts';
import { seededBefore } from '#server/test/migration-db.ts';
import { limitsPolicy } from './policy-in-force.ts';

/*
 * Migration 20261124300100 on a database that already holds policies: each one becomes version
 * 1, Approved, with the content it had (so no limit changes), the microbial policy moves to the
 * policies' table, and every facility, old or new, has each record.
 */

const MIGRATION = '20261124300100_controlled_limit_policies.sql';
type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions

let db: Db;
let facilityId: number;
beforeAll(async () => {
  ({ db, facilityId } = await seededBefore(MIGRATION));
  const stored = { ...defaultPolicy('Chemical'), arl: { value: 5, unit: 'ppm' } };
  // A policy stored before a field existed: the migration completes it with the default.
  delete (stored as Partial<typeof stored>).areaBasis;
  await db.query(
    `insert into cleaning_limit_policies (facility_id, residue_type, policy, version, updated_at)
     values ($1, 'Chemical', $2, 3, '2026-06-01T10:00:00Z')`,
    [facilityId, JSON.stringify(stored)],
  );
  await db.query(
    `insert into facility_rules (facility_id, kind, rule_key, body, version)
     values ($1, 'MicrobialPolicy', '', '{"rinseLimit": 10}', 2),
            ($1, 'InspectionSettings', '', '{"minimumLightLux": 800}', 4)`,
    [facilityId],
  );
  await migrate(db);
  // Migrating a new embedded database from scratch takes a minute on a busy 2-core machine.
}, 240_000);
afterAll(async () => {
  await db?.close();
});

const versionsOf = (documentType: string) =>
  db.query<Row>(
    `select v.document_id, v.version_number, v.status, v.signature_state, v.content, v.approved_at
       from controlled_versions v where v.facility_id = $1 and v.document_type = $2
      order by v.document_id`,
    [facilityId, documentType],
  );

describe('limit policies and inspection settings become controlled records', () => {
  it('keep each stored policy as version 1, Approved, with the content it had', async () => {
    const [chemical] = await db.query<Row>(
      `select id, policy, version from cleaning_limit_policies
        where facility_id = $1 and residue_type = 'Chemical'`,
      [facilityId],
    );
    expect(chemical!.version).toBe(3);
    expect(chemical!.policy).toEqual({
      ...defaultPolicy('Chemical'),
      arl: { value: 5, unit: 'ppm' },
    });
    const versions = await versionsOf('CleaningLimitPolicy');
    const v1 = versions.find((v) => v.document_id === chemical!.id);
    expect(v1).toMatchObject({
      version_number: 1,
      status: 'Approved',
      signature_state: 'Signed',
      content: chemical!.policy,
    });
    // In force from its last change, the earliest moment known; asked about an earlier moment,
    // the limits use it too (nothing older was kept).
    expect(new Date(v1!.approved_at).toISOString()).toBe('2026-06-01T10:00:00.000Z');
    for (const asOf of [undefined, '2026-01-01T00:00:00Z', '2026-06-02T00:00:00Z'])
      expect(await limitsPolicy(db, facilityId, 'Chemical', { asOf })).toMatchObject({
        versionNumber: 1,
        status: 'Approved',
        content: { arl: { value: 5, unit: 'ppm' } },
      });
  });

  it('move the microbial policy to the policies, with its content and version', async () => {
    const left = await db.query(`select 1 from facility_rules where kind = 'MicrobialPolicy'`);
    expect(left).toEqual([]);
    const [microbial] = await db.query<Row>(
      `select id, policy, version from cleaning_limit_policies
        where facility_id = $1 and residue_type = 'Microbial'`,
      [facilityId],
    );
    expect(microbial).toMatchObject({
      version: 2,
      policy: { ...MICROBIAL_POLICY_DEFAULTS, rinseLimit: 10 },
    });
    const [inspection] = await versionsOf('CleaningInspectionSettings');
    expect(inspection).toMatchObject({
      status: 'Approved',
      content: { ...INSPECTION_SETTINGS_DEFAULTS, minimumLightLux: 800 },
    });
  });

  it('give every facility, and each new one, every record with the defaults in force', async () => {
    const [group] = await db.query<{ id: number; plan_id: number }>(
      'select id, plan_id from facility_groups limit 1',
    );
    const [added] = await db.query<{ id: number }>(
      `insert into facilities (plan_id, facility_group_id, name, product_type, tier)
       values ($1, $2, 'New plant', 'product', 'full') returning id`,
      [group!.plan_id, group!.id],
    );
    const facilities = await db.query<{ id: number }>('select id from facilities order by id');
    expect(facilities.length).toBe(3);
    for (const { id } of facilities) {
      const records = await db.query<Row>(
        `select v.document_type, count(*)::int as n,
                bool_and(v.status = 'Approved' and v.version_number = 1) as approved
           from controlled_versions v
          where v.facility_id = $1 and v.document_type in ('CleaningLimitPolicy', 'CleaningInspectionSettings')
          group by v.document_type order by v.document_type`,
        [id],
      );
      expect(records).toEqual([
        { document_type: 'CleaningInspectionSettings', n: 1, approved: true },
        { document_type: 'CleaningLimitPolicy', n: 5, approved: true },
      ]);
    }
    const fresh = await db.query<Row>(
      `select residue_type, policy from cleaning_limit_policies where facility_id = $1`,
      [added!.id],
    );
    expect(Object.fromEntries(fresh.map((r) => [r.residue_type, r.policy]))).toEqual({
      ...Object.fromEntries(RESIDUE_TYPES.map((t) => [t, defaultPolicy(t)])),
      Microbial: MICROBIAL_POLICY_DEFAULTS,
    });
  });

  it('start from the same defaults as the code', async () => {
    const kinds = [...RESIDUE_TYPES, 'Microbial', 'InspectionSettings'];
    const rows = await db.query<{ kind: string; defaults: unknown }>(
      'select k as kind, controlled_rule_defaults(k) as defaults from unnest($1::text[]) k',
      [kinds],
    );
    expect(Object.fromEntries(rows.map((r) => [r.kind, r.defaults]))).toEqual({
      ...Object.fromEntries(RESIDUE_TYPES.map((t) => [t, defaultPolicy(t)])),
      Microbial: MICROBIAL_POLICY_DEFAULTS,
      InspectionSettings: INSPECTION_SETTINGS_DEFAULTS,
    });
  });
});
