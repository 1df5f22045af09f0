import { beforeAll, describe, expect, it } from 'vitest';
import { criteriaSentence } from '#core/assessments/criteria-sentence.ts';
import type { TImpactPair } from '#core/schemas/change-assessments.schemas.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';
import { changeAssessmentKit } from '#server/test/change-assessment-kit.ts';
import { adminEditor } from '#server/test/policy-in-force.ts';
import { reportKit } from '#server/test/report-test-kit.ts';

/*
 * An evaluation where no limit moves says why (issue 30). Gamma (PDE 5 mg, therapeutic dose
 * 1 mg) is C's active; C → D on Line 2 (D: 80 kg / 300 mg): health-based 5 mg × 80 kg / 300 mg =
 * 1,333,333 mg, dose-based 1 mg × 80 kg / (1,000 × 300 mg) = 266.7 mg governs. A PDE of 2 mg
 * moves the health-based criterion only: no limit moves, and the listed pair says so.
 */

const t = useFacilityTestServer();
let here: MacFacility;
beforeAll(async () => {
  here = await buildMacFacility(t.server, t.facilityId);
});

const call = (method: string, path: string, body?: unknown) =>
  t.call(method, `${here.F}/change-assessments${path}`, body);
const { generate, pdfOf } = reportKit(t, () => here.F);

async function gammaId(): Promise<number> {
  const res = await t.call('GET', `${here.F}/apis?search=Gamma&pageLimit=10`);
  return (res.body.data as Body[]).find((a) => a.name === 'Gamma')!.id as number;
}

describe('an evaluation that moves no limit', () => {
  let evaluatedId = 0;
  let why = '';

  it('lists the pairs whose criterion moved, with each criterion before and after', async () => {
    const created = await call('POST', '', {
      title: 'Gamma PDE from the new monograph',
      changeType: 'HBEL/dose/batch change',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    let ca = created.body.changeAssessment as Body;
    const staged = await call('POST', `/${ca.id}/changes`, {
      reason: 'New monograph',
      version: ca.version,
      op: 'update',
      entity: 'actives',
      recordId: await gammaId(),
      values: { pde: { value: 2, unit: 'mg' } },
    });
    expect(staged.status, JSON.stringify(staged.body)).toBe(200);
    ca = staged.body.changeAssessment as Body;
    const evaluated = await call('POST', `/${ca.id}/evaluate`, { version: ca.version });
    expect(evaluated.status, JSON.stringify(evaluated.body)).toBe(200);
    evaluatedId = ca.id as number;
    const summary = evaluated.body.changeAssessment.evaluation.summary as Body;
    expect(summary).toMatchObject({ pairsMoved: 0, criterionChanged: 0, criteriaMoved: 1 });

    const impact = await call('GET', `/${ca.id}/impact?pageLimit=100`);
    expect(impact.status).toBe(200);
    expect(impact.body.items).toEqual([]);

    const res = await call('GET', `/${ca.id}/impact/pairs?previous=C`);
    expect(res.status).toBe(200);
    const pairs = res.body.pairs as TImpactPair[];
    expect(pairs.map((p) => `${p.previous}→${p.next}`)).toEqual(['C→D']);
    const [pair] = pairs;
    expect(pair!.criteria!.unit).toBe('mg');
    expect(pair!.criteria!.before!.health).toBeCloseTo(4e6 / 3, 6);
    expect(pair!.criteria!.after!.health).toBeCloseTo(1.6e6 / 3, 6);
    expect(pair!.criteria!.after!.dose).toBeCloseTo(800 / 3, 9);
    why = criteriaSentence(pair!)!;
    expect(why).toBe('Health-based 1,333,333 mg → 533,333 mg; dose-based 266.7 mg still governs');

    // The pairs whose limits stay, on their own: what the screen lists when nothing moved.
    const stays = await call('GET', `/${ca.id}/impact/pairs?stays=true`);
    expect(stays.status).toBe(200);
    expect(stays.body.total).toBe(1);
    expect((stays.body.pairs as TImpactPair[]).map((p) => criteriaSentence(p))).toEqual([
      criteriaSentence(pair!),
    ]);
  });
  it('the signed change-assessment report says why the limits stay', async () => {
    expect(evaluatedId).toBeGreaterThan(0);
    const cak = changeAssessmentKit((method, path, body, as) =>
      t.call(method, `${here.F}${path}`, body, as),
    );
    const submitted = await cak.sign(evaluatedId, 'Submit', adminEditor(t.token));
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const report = await generate({ kind: 'change-assessment', changeAssessmentId: evaluatedId });
    expect(report.error).toBeNull();
    const { text } = await pdfOf(`/reports/change-assessment/${report.id}/pdf`);
    expect(text).toContain('The change moves no limit: there is nothing to decide.');
    expect(text).toContain('Why the limits stay');
    expect(text).toContain(`C D ${why.replace('→', '->')}`);
    const again = await t.call('GET', `${here.F}/reports/${report.id}/regenerate`);
    expect(again.status).toBe(200);
    expect(again.body.same).toBe(true);
  });
});
