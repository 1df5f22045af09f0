import { beforeAll, describe, expect, it } from 'vitest';
import { planSettingsDecl } from '#core/entities/defs/settings.def.ts';
import type { Db } from '../db/db.ts';
import { useFacilityTestServer } from '../test/facility-test-file.ts';
import { buildUser, testActor } from '../test/factories.ts';
import { openPlanRecord, writePlanRecord } from './plan-record.ts';

/*
 * The plan's settings through the one write path: the write itself refuses a version other
 * than the one the row was read at (no audit row then), and every kept version names its author.
 */

const t = useFacilityTestServer();
let db: Db;
let planId: number;
beforeAll(() => {
  db = t.server.db;
  planId = t.planId;
});

const decl = { ...planSettingsDecl, domain: 'AllowedDomains' as const };
const audits = async () =>
  (
    await db.query<{ n: number }>(
      `select count(*)::int as n from audit_log where domain = 'AllowedDomains'`,
    )
  )[0]!.n;

describe("the plan's settings", () => {
  it('are written only at the version read, each kept version with its author', async () => {
    const user = await buildUser(db);
    const actor = { ...testActor, userId: user.id };
    const [now] = await db.query<{ version: number }>(
      'select version from plan_settings where plan_id = $1',
      [planId],
    );
    const version = now?.version ?? 1;
    const read = await db.transaction((tx) => openPlanRecord(tx, decl, planId, version));
    const write = (domains: string[]) =>
      db.transaction(async (tx) =>
        writePlanRecord(tx, decl, {
          actor,
          planId,
          row: read,
          set: { allowed_domains: domains },
          audit: { action: 'Update', reason: 'Company domain' },
        }),
      );
    const before = await audits();
    expect((await write(['example.com'])).version).toBe(version + 1);
    await expect(write(['other.example'])).rejects.toMatchObject({
      errName: 'VersionConflictError',
    });
    await expect(
      db.transaction((tx) => openPlanRecord(tx, decl, planId, version)),
    ).rejects.toMatchObject({ errName: 'VersionConflictError' });
    expect(await audits()).toBe(before + 1);

    const [kept] = await db.query<{ version: number; recorded_by: number; domains: string[] }>(
      `select version, recorded_by, row_data -> 'allowed_domains' as domains from record_versions
        where table_name = 'plan_settings' and record_id = $1 order by id desc limit 1`,
      [planId],
    );
    expect(kept).toEqual({ version: version + 1, recorded_by: user.id, domains: ['example.com'] });
  });
});
