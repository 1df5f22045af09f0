import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';

/*
 * What a sample result is judged with, over HTTP: the limit's derivation from the pinned
 * snapshot in front of the judgement's, the worst-case product group's products, snapshot names
 * matched by id after a rename, the swab LOQ through the extraction volume, the recovery
 * fallback chain, and a correction judged with the method version the result was analysed with.
 */

const t = useFacilityTestServer();
const kit = runKit(t);
const { call, ok, newRun, row, results } = kit;
let f: RunFacility;
beforeAll(async () => {
  f = await kit.build();
});

/** A copy of the kit's snapshot with `change` applied to its engine input (as an approval stores). */
async function snapshotWith(change: (input: Body) => Body): Promise<number> {
  const [base] = await t.server.db.query<{ input: Body }>(
    'select input from limits_snapshots where id = $1',
    [f.snapshotId],
  );
  const [row] = await t.server.db.query<{ id: number }>(
    `insert into limits_snapshots (facility_id, document_type, document_id, version_number,
       input, input_hash, output_hash)
     values ($1, 'CleaningLimitPolicy', 1, 1, $2, 'x', 'y') returning id`,
    [t.facilityId, JSON.stringify(change(structuredClone(base!.input)))],
  );
  return row!.id;
}

const planOf = (run: Body, location: number) =>
  (run.plan as Body[]).find((p) => p.samplingLocationId === location)!;

/** Edits a declared record (POST {F}/{path}/{id}) from its current version. */
async function edit(path: string, id: number, change: Record<string, unknown>) {
  const current = await ok('GET', `/${path}/${id}`);
  const version = (current.result ?? current).version as number;
  return ok('POST', `/${path}/${id}`, { reason: 'Revised', version, ...change });
}

describe('the limit of a result', () => {
  it('is derived from the snapshot in front of the judgement, on the plan and on the result', async () => {
    const run = await newRun(await kit.study());
    const plan = planOf(run, f.steel);
    expect(plan.limitDerivation[0]).toMatch(/^Limit basis: equipment-wise: .* of E1 over its/);
    expect(plan.limitDerivation[1]).toMatch(/^Lowest surface limit \(SAL\): .* mg\/cm², pair /);
    expect(plan.limitDerivation[2]).toMatch(/^Swab limit: .* mg\/cm² × 25 cm² = .* mg\/swab/);
    const saved = await results(run, [row(run, f.steel, 0.5)]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const derivation = saved.body.run.results[0].judgement.derivation as string[];
    expect(derivation.slice(0, plan.limitDerivation.length)).toEqual(plan.limitDerivation);
    expect(derivation[plan.limitDerivation.length]).toMatch(/^Reported: /);
    // In ug/swab the derivation says the conversion, as the limit is given in the entered unit.
    const inUg = await results(run, [
      row(run, f.ptfe, 0.5, { unit: 'ug/swab', rawValue: planOf(run, f.ptfe).limit * 500 }),
    ]);
    const ug = (inUg.body.run.results as Body[]).find((r) => r.samplingLocationId === f.ptfe)!;
    expect(ug.judgement.derivation).toContainEqual(
      expect.stringMatching(/^In µg\/swab: .* µg\/swab$/),
    );
    expect(ug.judgement.percentOfLimit).toBeCloseTo(50, 6);
  });

  it("is the lowest over the worst-case group's products, product-wise", async () => {
    const [a, b] = f.productIds;
    const group = await ok('POST', '/product_groups', {
      name: 'Worst case A+B',
      productIds: [a, b],
    });
    const productWise = { limitBasis: 'productWise' };
    const limitWith = async (content: Record<string, unknown>) =>
      planOf(await newRun(await kit.study({ ...productWise, ...content })), f.steel);
    const onlyA = await limitWith({ productIds: [a] });
    const onlyB = await limitWith({ productIds: [b] });
    const grouped = await limitWith({ productIds: [], productGroupId: group.result.id });
    expect(grouped.limitDerivation[0]).toMatch(/^Limit basis: product-wise: /);
    expect(grouped.limitDerivation[0]).toContain('A, B as previous product');
    expect(grouped.limit).toBe(Math.min(onlyA.limit, onlyB.limit));
    expect(onlyA.limit).not.toBe(onlyB.limit);
  });

  it('keeps matching the snapshot by id after the equipment and a product are renamed', async () => {
    const [a] = f.productIds;
    const studyId = await kit.study({ limitBasis: 'productWise', productIds: [a] });
    const before = planOf(await newRun(studyId), f.steel);
    const [e1] = await t.server.db.query<{ equipment_id: number }>(
      'select equipment_id from sampling_locations where id = $1',
      [f.steel],
    );
    await edit('equipments', e1!.equipment_id, { name: 'E1 renamed' });
    await edit('products', a!, { name: 'A renamed' });
    try {
      const after = planOf(await newRun(studyId), f.steel);
      expect(after.equipmentName).toBe('E1 renamed');
      expect(after.limit).toBe(before.limit);
      expect(after.limitDerivation).toEqual(before.limitDerivation);
    } finally {
      await edit('equipments', e1!.equipment_id, { name: 'E1' });
      await edit('products', a!, { name: 'A' });
    }
  });

  it("follows a plan's location moved to other equipment renamed since the snapshot", async () => {
    // The study's snapshot names are kept once read (issue 34): a location moved to other
    // equipment must not find the names kept for its old one.
    const studyId = await kit.study();
    const before = planOf(await newRun(studyId), f.steel);
    expect(before.limitDerivation[0]).toMatch(/ of E1 over its/);
    const [e] = await t.server.db.query<{ e1: number; e2: number }>(
      `select l.equipment_id as e1, e2.id as e2 from sampling_locations l
         join equipment e2 on e2.facility_id = l.facility_id and e2.name = 'E2'
        where l.id = $1`,
      [f.steel],
    );
    await edit('equipments', e!.e2, { name: 'E2 renamed' });
    const move = (to: number) =>
      t.server.db.query('update sampling_locations set equipment_id = $2 where id = $1', [
        f.steel,
        to,
      ]);
    await move(e!.e2);
    try {
      const after = planOf(await newRun(studyId), f.steel);
      expect(after.equipmentName).toBe('E2 renamed');
      // Matched by the name E2 had in the snapshot, not its name now.
      expect(after.limitDerivation[0]).toMatch(/ of E2 over its/);
    } finally {
      await move(e!.e1);
      await edit('equipments', e!.e2, { name: 'E2' });
    }
  });
});

describe('the LOQ of a swab result', () => {
  it("is the method's concentration × the snapshot's extraction volume, and flags a method not fit", async () => {
    const withExtraction = await snapshotWith((input) => ({
      ...input,
      sampling: { ...input.sampling, extractionVolume: { value: 10, unit: 'ml' } },
    }));
    const limit = planOf(await newRun(await kit.study()), f.steel).limit as number;
    // LOQ X ppm = X/1000 mg/ml in the extract, × 10 ml = X/100 mg/swab; 200 × limit is 2 × it.
    // A protocol refuses a method that cannot show its limit, so the method is fit when the
    // study starts (20 × limit: 0.2 × it) and its LOQ is raised afterwards.
    const coarse = await ok('POST', '/analytical-method', {
      name: 'UV-coarse',
      testType: 'TOC',
      loq: { value: limit * 20, unit: 'ppm' },
    });
    const plan = [
      { samplingLocationId: f.steel, sampleType: 'swab', analyticalMethodId: coarse.result.id },
    ];
    const studyId = await kit.study({ samplingPlan: plan, limitsSnapshotId: withExtraction });
    await edit('analytical-method', coarse.result.id, { loq: { value: limit * 200, unit: 'ppm' } });
    const run = await newRun(studyId);
    expect(planOf(run, f.steel).loq).toBeCloseTo(limit * 2, 10);
    const saved = await results(run, [
      row(run, f.steel, 0.1, { analyticalMethodId: coarse.result.id }),
    ]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const judged = saved.body.run.results[0].judgement as Body;
    expect(judged.methodNotFit).toBe(true);
    expect(judged.derivation.some((l: string) => l.startsWith('Method not fit: LOQ'))).toBe(true);
    // Without an extraction volume the LOQ cannot be expressed per swab: the method cannot show
    // the limit, so even 10 % of it is never a pass (issue 26: it passed before).
    // A protocol refuses such a method, so the study starts with the LOQ stated per swab (0.1 ×
    // the limit, fit) and the method restates it as a concentration afterwards.
    await edit('analytical-method', coarse.result.id, {
      loq: { value: limit * 100, unit: 'ug/swab' },
    });
    const withoutStudy = await kit.study({ samplingPlan: plan });
    await edit('analytical-method', coarse.result.id, { loq: { value: limit * 200, unit: 'ppm' } });
    const refused = await call('POST', '/protocols', {
      protocolNumber: 'PR-unconvertible',
      name: 'Unconvertible LOQ',
      productIds: f.productIds,
      samplingPlan: plan,
      limitsSnapshotId: f.snapshotId,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        property: 'samplingPlan[0].analyticalMethodId',
        constraints: {
          methodFit: expect.stringMatching(
            /^UV-coarse cannot show the limit: its LOQ of .* ppm cannot be expressed per swab/,
          ),
        },
      },
    ]);
    const without = await newRun(withoutStudy);
    expect(planOf(without, f.steel).loq).toBeNull();
    expect(planOf(without, f.steel).methodCannotShowLimit).toMatch(
      /^The method cannot show the limit: its LOQ of .* ppm cannot be expressed per swab/,
    );
    const plain = await results(without, [
      row(without, f.steel, 0.1, { analyticalMethodId: coarse.result.id }),
    ]);
    expect(plain.body.run.results[0].judgement).toMatchObject({
      methodNotFit: true,
      passed: false,
    });
    expect(plain.body.run.releaseFlag).toBe('CAN_NOT_BE_RELEASED');
    expect(plain.body.run.releaseReasons[0]).toMatch(
      /^The analytical method cannot show the limit/,
    );
  });
});

describe('method fitness (issue 26)', () => {
  it("converts a swab LOQ with the location's sampling type's extraction volume, or takes it per swab", async () => {
    const types = await ok('GET', '/sampling-types');
    const swab = (types.data as Body[]).find((x) => x.name === 'Swab')!;
    const [e1] = await t.server.db.query<{ equipment_id: number }>(
      'select equipment_id from sampling_locations where id = $1',
      [f.steel],
    );
    const extracted = await ok('POST', '/sampling-types', {
      name: 'Swab in 20 ml',
      sampleType: 'swab',
      swabArea: swab.swabArea,
      extractionVolume: { value: 20, unit: 'ml' },
    });
    expect(extracted.result.extractionVolume).toEqual({ value: 20, unit: 'ml' });
    const created = await ok('POST', `/equipments/${e1!.equipment_id}/sampling-locations`, {
      equipmentId: e1!.equipment_id,
      data: [
        {
          name: 'Lid (extracted)',
          sampleType: 'swab',
          samplingTypeId: extracted.result.id,
          material: 'Glass',
        },
      ],
    });
    const lid = created.result[0].id as number;
    const limit = planOf(await newRun(await kit.study()), f.steel).limit as number;
    // An LOQ of X ppm = X/1000 mg/ml × 20 ml = X/50 mg/swab: X = limit × 25 gives half the limit.
    const concentration = await ok('POST', '/analytical-method', {
      name: 'UV-extract',
      testType: 'TOC',
      loq: { value: limit * 25, unit: 'ppm' },
    });
    // The same half of the limit, stated per swab in ug.
    const perSwab = await ok('POST', '/analytical-method', {
      name: 'UV-per-swab',
      testType: 'TOC',
      loq: { value: limit * 500, unit: 'ug/swab' },
    });
    const run = await newRun(
      await kit.study({
        samplingPlan: [
          {
            samplingLocationId: lid,
            sampleType: 'swab',
            analyticalMethodId: concentration.result.id,
          },
          {
            samplingLocationId: f.steel,
            sampleType: 'swab',
            analyticalMethodId: perSwab.result.id,
          },
        ],
      }),
    );
    expect(planOf(run, lid).loq).toBeCloseTo(limit / 2, 12);
    expect(planOf(run, f.steel).loq).toBeCloseTo(limit / 2, 12);
    expect(planOf(run, lid).methodCannotShowLimit).toBeNull();
    // Steel's recovery is 100 % for this method: LOQ/recovery = half the limit, fit.
    expect(planOf(run, f.steel).methodCannotShowLimit).toBeNull();
    // = 0.3 × limit is below the LOQ (0.5 × limit): reported < LOQ at the LOQ, 50 % of limit.
    const saved = await results(run, [
      row(run, lid, 0.3, { analyticalMethodId: concentration.result.id }),
      row(run, f.steel, 0.8, { analyticalMethodId: perSwab.result.id }),
    ]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const [atLid, atSteel] = saved.body.run.results as Body[];
    expect(atLid!.judgement).toMatchObject({
      passed: true,
      methodNotFit: false,
      censoredBelow: true,
      reportedCensoring: '< LOQ',
    });
    expect(atLid!.judgement.percentOfLimit).toBeCloseTo(50, 6);
    expect(atSteel!.judgement).toMatchObject({ passed: true, methodNotFit: false });
    expect(atSteel!.judgement.percentOfLimit).toBeCloseTo(80, 6);
  });

  it('never passes a rinse < LOQ whose method LOQ is above the limit, and the run is not releasable', async () => {
    const limit = planOf(await newRun(await kit.study()), f.steel).limit as number;
    // A per-swab LOQ twice the limit, as the rinse example (LOQ 0.2 vs limit 0.1).
    // Fit when the protocol is approved (a protocol refuses a blind method), blind once the
    // method's LOQ is restated after the study started.
    const blind = await ok('POST', '/analytical-method', {
      name: 'UV-blind',
      testType: 'TOC',
      loq: { value: limit * 0.05, unit: 'mg/swab' },
    });
    const plan = [f.steel, f.ptfe].map((id) => ({
      samplingLocationId: id,
      sampleType: 'swab',
      analyticalMethodId: blind.result.id,
    }));
    const studyId = await kit.study({ samplingPlan: plan, allowReleaseAtRisk: true });
    await edit('analytical-method', blind.result.id, {
      loq: { value: limit * 2, unit: 'mg/swab' },
    });
    const run = await newRun(studyId);
    expect(planOf(run, f.ptfe).methodCannotShowLimit).toMatch(
      /^The method cannot show the limit: its LOQ .* mg\/swab ÷ 100 % = .* mg\/swab is above the limit of /,
    );
    const started = await kit.event(run, {
      startedAt: '2026-01-05T08:00:00Z',
      endedAt: '2026-01-05T09:00:00Z',
    });
    // Visual passed and every location has a result under the limit as typed: before issue 26
    // this run was CAN_BE_RELEASED.
    await kit.visualPass(started);
    const saved = await results(started, [
      row(started, f.steel, 0.1, { analyticalMethodId: blind.result.id, censoring: '< LOQ' }),
      row(started, f.ptfe, 0.1, { analyticalMethodId: blind.result.id, censoring: '< LOQ' }),
    ]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    for (const r of saved.body.run.results as Body[]) {
      expect(r.judgement).toMatchObject({ passed: false, methodNotFit: true, censoredBelow: true });
      expect(r.judgement.percentOfLimit).toBeGreaterThanOrEqual(200);
    }
    expect(saved.body.run.releaseFlag).toBe('CAN_NOT_BE_RELEASED');
    expect(saved.body.run.verdict).toBe('Fail');
    expect(saved.body.run.releaseReasons).toContainEqual(
      expect.stringMatching(
        /^The analytical method cannot show the limit at location [A-Z][^#]*: /,
      ),
    );
  });
});

describe('the recovery', () => {
  it("falls back to the sampling type's, the policy's global recovery, the lower when both", async () => {
    const types = await ok('GET', '/sampling-types');
    const swab = (types.data as Body[]).find((x) => x.name === 'Swab')!;
    const [e1] = await t.server.db.query<{ equipment_id: number }>(
      'select equipment_id from sampling_locations where id = $1',
      [f.ptfe],
    );
    const typed = await ok('POST', '/sampling-types', {
      name: 'Swab 90',
      sampleType: 'swab',
      swabArea: swab.swabArea,
      recoveryPercentage: 90,
    });
    const created = await ok('POST', `/equipments/${e1!.equipment_id}/sampling-locations`, {
      equipmentId: e1!.equipment_id,
      data: [
        { name: 'Lid', sampleType: 'swab', samplingTypeId: typed.result.id, material: 'Glass' },
      ],
    });
    const lid = created.result[0].id as number;
    const plan = [f.ptfe, lid].map((id) => ({
      samplingLocationId: id,
      sampleType: 'swab',
      analyticalMethodId: f.method,
    }));
    const global = (percent: number) =>
      snapshotWith((input) => ({
        ...input,
        policy: {
          ...input.policy,
          useGlobalRecoveryPercentage: true,
          globalRecoveryPercentage: percent,
        },
      }));
    const recoveries = async (snapshot?: number) => {
      const run = await newRun(
        await kit.study({
          samplingPlan: plan,
          ...(snapshot ? { limitsSnapshotId: snapshot } : {}),
        }),
      );
      const of = (id: number) => planOf(run, id);
      return { ptfe: of(f.ptfe), lid: of(lid), run };
    };
    const none = await recoveries();
    expect(none.ptfe).toMatchObject({ recovery: 1, recoverySource: 'no recovery applied' });
    expect(none.lid).toMatchObject({ recovery: 0.9, recoverySource: 'sampling type' });
    const at70 = await recoveries(await global(70));
    expect(at70.ptfe).toMatchObject({
      recovery: 0.7,
      recoverySource: 'global recovery of the policy',
    });
    expect(at70.lid).toMatchObject({
      recovery: 0.7,
      recoverySource: "global recovery of the policy, lower than the sampling type's (90 %)",
    });
    const at95 = await recoveries(await global(95));
    expect(at95.lid).toMatchObject({
      recovery: 0.9,
      recoverySource: 'sampling type, lower than the global recovery of the policy (95 %)',
    });
    // The saved judgement divides by the same recovery: 0.35 × limit ÷ 0.7 = 50 %.
    const saved = await results(at70.run, [row(at70.run, lid, 0.35)]);
    const judged = saved.body.run.results[0].judgement as Body;
    expect(judged.recovery).toBe(0.7);
    expect(judged.percentOfLimit).toBeCloseTo(50, 6);
  });
});

describe('a correction', () => {
  it('keeps the method version the result was analysed with, and judges with it', async () => {
    const method = await ok('POST', '/analytical-method', {
      name: 'HPLC-versioned',
      testType: 'TOC',
      recoveries: [{ material: 'Stainless steel 316L', recoveryPercentage: 80 }],
    });
    const plan = [
      { samplingLocationId: f.steel, sampleType: 'swab', analyticalMethodId: method.result.id },
    ];
    const run = await newRun(await kit.study({ samplingPlan: plan }));
    const saved = await results(run, [
      row(run, f.steel, 0.4, { analyticalMethodId: method.result.id }),
    ]);
    const result = saved.body.run.results[0] as Body;
    expect(result.judgement.recovery).toBe(0.8);
    const revised = await edit('analytical-method', method.result.id, {
      recoveries: [{ material: 'Stainless steel 316L', recoveryPercentage: 50 }],
    });
    expect((revised.result ?? revised).version).toBeGreaterThan(result.analyticalMethodVersion);
    const corrected = await ok('POST', `/results/${result.id}`, {
      rawValue: result.rawValue * 2,
      reason: 'Transcription error',
      version: result.version,
    });
    const now = (corrected.run.results as Body[]).find((r) => r.id === result.id)!;
    expect(now.analyticalMethodVersion).toBe(result.analyticalMethodVersion);
    expect(now.judgement.recovery).toBe(0.8);
    expect(now.judgement.percentOfLimit).toBeCloseTo(100, 6);
  });

  it("refuses to move a retest's batch number, or its original's", async () => {
    const run = await newRun(await kit.study());
    const first = await results(run, [row(run, f.steel, 0.3)]);
    const original = first.body.run.results[0] as Body;
    const again = await results(run, [
      row(run, f.steel, 0.2, {
        batchNumber: null,
        repeats: { resultId: original.id, kind: 'retest', reason: 'Peak shape' },
      }),
    ]);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    const retest = (again.body.run.results as Body[]).find((r) => r.id !== original.id)!;
    expect(retest.batchNumber).toBe(original.batchNumber);
    const moved = await call('POST', `/results/${retest.id}`, {
      batchNumber: `OTHER-${Date.now()}`,
      reason: 'Wrong batch',
      version: retest.version,
    });
    expect(moved.status).toBe(422);
    expect(moved.body.errName).toBe('SampleChangesError');
    expect(moved.body.errors[0]).toMatchObject({
      property: 'batchNumber',
      constraints: { invalid: 'A retest keeps the sample number of the result it repeats' },
    });
    const fresh = await ok('GET', `/runs/${run.id}`);
    const originalNow = (fresh.run.results as Body[]).find((r) => r.id === original.id)!;
    const parted = await call('POST', `/results/${original.id}`, {
      batchNumber: `OTHER-${Date.now()}`,
      reason: 'Wrong batch',
      version: originalNow.version,
    });
    expect(parted.status).toBe(422);
    expect(parted.body.errors[0].property).toBe('batchNumber');
    // A retest's own value is still corrected, its batch number kept.
    const value = await ok('POST', `/results/${retest.id}`, {
      rawValue: retest.rawValue / 2,
      reason: 'Integration redone',
      version: retest.version,
    });
    const kept = (value.run.results as Body[]).find((r) => r.id === retest.id)!;
    expect(kept.batchNumber).toBe(original.batchNumber);
  });
});
