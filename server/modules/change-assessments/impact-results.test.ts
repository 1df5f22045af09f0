import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';

/*
 * Sample results in a change's impact (issue 12): a change lowering the limit of an equipment
 * below (or to under twice) an existing result's corrected value lists that result as
 * `resultAtRisk`; a change loosening it lists none.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
let f: RunFacility;
let e1: number;
let resultId: number;
beforeAll(async () => {
  f = await kit.build();
  const run = await kit.newRun(await kit.study());
  // 40 % of the gasket's limit: not at risk as things are.
  const res = await kit.results(run, [kit.row(run, f.ptfe, 0.4)]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  resultId = (res.body.run.results as Body[])[0]!.id as number;
  const [row] = await t.server.db.query<{ equipment_id: number }>(
    'select equipment_id from sampling_locations where id = $1',
    [f.ptfe],
  );
  e1 = row!.equipment_id;
});

async function evaluated(area: number) {
  const created = await kit.call('POST', '/change-assessments', {
    title: `E1 at ${area} sqm`,
    changeType: 'HBEL/dose/batch change',
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  let ca = created.body.changeAssessment as Body;
  const staged = await kit.call('POST', `/change-assessments/${ca.id}/changes`, {
    reason: 'Planned change',
    version: ca.version,
    op: 'update',
    entity: 'equipment',
    recordId: e1,
    values: { surfaceArea: { value: area, unit: 'sqm' } },
  });
  expect(staged.status, JSON.stringify(staged.body)).toBe(200);
  ca = staged.body.changeAssessment as Body;
  const res = await kit.call('POST', `/change-assessments/${ca.id}/evaluate`, {
    version: ca.version,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  ca = res.body.changeAssessment as Body;
  const impact = await kit.call('GET', `/change-assessments/${ca.id}/impact?pageLimit=1000`);
  expect(impact.status).toBe(200);
  return {
    summary: ca.evaluation.summary as Body,
    atRisk: (impact.body.items as Body[]).filter((i) => i.kind === 'resultAtRisk'),
  };
}

describe('sample results in a change impact', () => {
  it('a larger surface of the sampled equipment puts the result over its new limit', async () => {
    const { summary, atRisk } = await evaluated(10_000);
    expect(summary.resultsAtRisk).toBeGreaterThan(0);
    expect(atRisk.length).toBe(summary.resultsAtRisk);
    // The study names products A and B: the result is weighed after each.
    expect(atRisk.map((i) => i.subject).sort()).toEqual([`${resultId} · A`, `${resultId} · B`]);
    expect(atRisk[0]!.summary).toMatch(/^swab result .* (fails|is over half of) the new limit/);
    expect(atRisk[0]!.tightened).toBe(true);
  });

  it('a smaller surface loosens the limit: no result at risk', async () => {
    const { summary, atRisk } = await evaluated(0.01);
    expect(summary.resultsAtRisk).toBe(0);
    expect(atRisk).toEqual([]);
  });
});
