import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { buildMacFacility } from '#server/test/mac-test-data.ts';

/*
 * One worst case per train everywhere (issue 32): the change impact's `worstCaseChanged` names the
 * product that GET worst-products/trains and the cleaning assessment name, before and after the
 * change, chosen by the facility's selection criteria, not by a rule of its own.
 *
 * By hand on the MAC facility with 'Highest potency' first, then 'Lowest MACO': on Line 1 (A, B)
 * only A's active has a therapeutic dose (Alpha, 10 mg), so A is the worst case although B has the
 * lowest MACO (250 mg against A's 1,000 mg) and so the lowest surface limit on the train (both
 * pairs share E1 and E2): the lowest-SAL rule the impact had would have named B. The change gives
 * B's active (Beta) a therapeutic dose of 1 mg: B is the more potent, and the worst case, after.
 */

const t = useFacilityTestServer();
let beta: number;

const ok = async (method: string, path: string, body?: unknown) => {
  const res = await t.call(method, `${t.F}${path}`, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
};

beforeAll(async () => {
  await buildMacFacility(t.server, t.facilityId, { onTrains: true });
  await ok('POST', '/selection-criteria', {
    criteriaId: 'SC-1',
    name: 'Most potent first',
    basis: 'Highest potency',
    appliesTo: 'Production',
    priority: 1,
  });
  await ok('POST', '/selection-criteria', {
    criteriaId: 'SC-2',
    name: 'Then the lowest MACO',
    basis: 'Lowest MACO',
    appliesTo: 'Production',
    priority: 2,
  });
  const actives = await ok('GET', '/apis?search=Beta&pageLimit=100');
  beta = (actives.data as Body[]).find((a) => a.name === 'Beta')!.id as number;
});

/** Each train's computed worst case as GET worst-products/trains answers it, by production. */
const worstProducts = async () =>
  Object.fromEntries(
    ((await ok('GET', '/worst-products/trains')).trains as Body[]).map((r) => [r.name, r]),
  ) as Record<string, Body>;

/** Each train's worst case in a new cleaning assessment, by production. */
async function assessed(): Promise<Record<string, string | null>> {
  let assessment = (await ok('POST', '/cleaning-assessments', {})).cleaningAssessment as Body;
  for (const deadline = Date.now() + 120_000; assessment.progress.state !== 'done';) {
    expect(assessment.progress.state).not.toBe('failed');
    if (Date.now() > deadline) throw new Error('the assessment did not finish');
    await new Promise((r) => setTimeout(r, 200));
    assessment = (await ok('GET', `/cleaning-assessments/${assessment.id}`))
      .cleaningAssessment as Body;
  }
  return Object.fromEntries(
    (assessment.result.worstCases as Body[]).map((w) => [w.train, w.product]),
  );
}

describe('the worst case of a train in a change impact', () => {
  it('is the one the worst-products answer and the cleaning assessment name, before and after', async () => {
    const before = await worstProducts();
    expect(before['Line 1']!.computed).toMatchObject({
      product: 'A',
      reason: { attribute: 'therapeuticDoseMg' },
    });
    // Not the lowest MACO (nor, on one shared area, the lowest surface limit) of the train.
    const maco = Object.fromEntries(
      (before['Line 1']!.products as Body[]).map((p) => [p.name, p.lowestMaco as number]),
    );
    expect(maco.B!).toBeLessThan(maco.A!);
    // Line 2 (C, D): only C's active (Gamma, 1 mg) has a therapeutic dose: C.
    expect(before['Line 2']!.computed.product).toBe('C');
    expect(await assessed()).toEqual({ 'Line 1': 'A', 'Line 2': 'C' });

    const created = await ok('POST', '/change-assessments', {
      title: 'Beta therapeutic dose',
      changeType: 'HBEL/dose/batch change',
    });
    let ca = created.changeAssessment as Body;
    ca = (
      await ok('POST', `/change-assessments/${ca.id}/changes`, {
        reason: 'New clinical data',
        version: ca.version,
        op: 'update',
        entity: 'actives',
        recordId: beta,
        values: { therapeuticDose: { value: 1, unit: 'mg' } },
      })
    ).changeAssessment as Body;
    ca = (await ok('POST', `/change-assessments/${ca.id}/evaluate`, { version: ca.version }))
      .changeAssessment as Body;
    const impact = await ok('GET', `/change-assessments/${ca.id}/impact?pageLimit=1000`);
    const changed = Object.fromEntries(
      (impact.items as Body[])
        .filter((i) => i.kind === 'worstCaseChanged')
        .map((i) => [i.subject, i]),
    ) as Record<string, Body>;
    expect(ca.evaluation.summary.worstCasesChanged).toBe(Object.keys(changed).length);
    // The train's limits are those of the named products: A's lowest MACO on Line 1 before.
    expect(changed['Line 1']!.before.maco).toBeCloseTo(maco.A!, 6);

    // The same edit made directly: each train's worst case after, as both name it.
    const record = await ok('GET', `/apis/${beta}`);
    await ok('POST', `/apis/${beta}`, {
      therapeuticDose: { value: 1, unit: 'mg' },
      reason: 'New clinical data',
      version: record.version,
    });
    const after = await worstProducts();
    const assessedAfter = await assessed();
    // Line 1: B is the more potent now (1 mg against A's 10 mg). Line 2: D's Beta is as potent
    // as C's Gamma now, so the lowest MACO decides.
    expect(after['Line 1']!.computed.product).toBe('B');
    for (const train of ['Line 1', 'Line 2']) {
      const [was, now] = [before[train]!.computed.product, after[train]!.computed.product];
      expect(assessedAfter[train]).toBe(now);
      if (was === now) expect(changed[train]).toBeUndefined();
      else expect(changed[train]!.summary).toContain(`Worst case ${was} → ${now};`);
    }
  });
});
