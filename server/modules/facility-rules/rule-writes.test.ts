import { describe, expect, it } from 'vitest';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { testActor } from '#server/test/factories.ts';
import { updateRule, type RuleRef } from './facility-rules.service.ts';

/*
 * A facility's rule goes through the one write path (server/records/write-record.ts): of two
 * first edits at once, made from the defaults (version 0), one creates the rule and the other
 * gets 409 rather than overwriting it; each write keeps a history row and one audit row.
 */

const t = useFacilityTestServer();

const ref: RuleRef<{ maxRiskScore: number | null }> = {
  kind: 'RiskGoal',
  key: '',
  domain: 'RiskGoal',
  defaults: { maxRiskScore: null },
};

describe('a facility rule', () => {
  it('is created once from its defaults, then changed only from the version read', async () => {
    const scope = { planId: t.planId, facilityId: t.facilityId };
    const edit = (maxRiskScore: number, version: number) =>
      updateRule(t.server.db, testActor, scope, ref, { maxRiskScore }, { reason: 'Goal', version });
    const firsts = await Promise.allSettled([edit(40, 0), edit(60, 0)]);
    expect(firsts.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = firsts.find((r) => r.status === 'rejected');
    expect(refused?.reason).toMatchObject({ errName: 'VersionConflictError' });
    const created = firsts.find((r) => r.status === 'fulfilled')!.value;
    expect(created.version).toBe(1);

    expect((await edit(70, 1)).version).toBe(2);
    await expect(edit(80, 1)).rejects.toMatchObject({ errName: 'VersionConflictError' });

    const audits = await t.server.db.query<{ action: string }>(
      `select action from audit_log where domain = 'RiskGoal' and facility_id = $1 order by seq`,
      [t.facilityId],
    );
    expect(audits.map((a) => a.action)).toEqual(['Create', 'Update']);
    const kept = await t.server.db.query<{ version: number; goal: number }>(
      `select version, (row_data -> 'body' ->> 'maxRiskScore')::int as goal from record_versions
        where table_name = 'facility_rules' and facility_id = $1
          and row_data ->> 'kind' = 'RiskGoal' order by id`,
      [t.facilityId],
    );
    expect(kept).toEqual([
      { version: 1, goal: created.body.maxRiskScore },
      { version: 2, goal: 70 },
    ]);
  });
});
