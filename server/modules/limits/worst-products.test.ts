import { beforeAll, describe, expect, it } from 'vitest';
import { personWith } from '#server/test/people.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { reportKit } from '#server/test/report-test-kit.ts';
import { adminActor } from '#server/test/factories/admin.ts';
import { signIntoForce } from '#server/test/factories/signed-record.ts';
import { signatureKey } from '#server/records/signature-binding.ts';
import { writeActSignature } from '#server/records/signature-write.ts';
import { overrideContent, WORST_OVERRIDE_MEANING } from './worst-product-overrides.ts';

/*
 * Issue 32: the worst-case product of each train and item, computed by the ranking's criteria,
 * and a site's override of it: justified, signed, never loosening the limit, audited.
 *
 * By hand on the MAC facility (no risk factors recorded, so every score is level and the lowest
 * MACO decides; the default policy takes the lowest of the HBEL, dose and 10 ppm criteria):
 * Line 1 (A, B on E1, E2): B → A, 1 ug/day × 50 kg / 200 mg = 250 mg (HBEL) below 10 ppm × 50 kg
 * = 500 mg; A → B, 10 ppm × 100 kg = 1000 mg below 0.001 × 10 mg × 100 kg / 400 mg = 2500 mg and
 * 0.1 mg × 100 kg / 400 mg = 25 000 mg. So B (250 mg) is Line 1's worst, A (1000 mg) next.
 * Line 2 (C, D on E3): D → C, 0.001 mg × 20 kg / 100 mg = 200 mg; C → D, 0.001 × 1 mg × 80 kg /
 * 300 mg = 266.67 mg. So D (200 mg) is Line 2's worst, C (266.67 mg) next.
 */

const t = useFacilityTestServer();
let mac: MacFacility;
/** The equipment trains Line 1 (E1, E2) and Line 2 (E3) run on: their overrides follow them. */
let train1: number;
let train2: number;

const person = (roleName: string, rights: Record<string, string[]>) =>
  personWith(t, roleName, rights);

const trains = async (as?: string) => t.call('GET', `${t.F}/worst-products/trains`, undefined, as);
const items = async (as?: string) =>
  t.call('GET', `${t.F}/worst-products/equipment`, undefined, as);
const line = async (name: string) =>
  (await trains()).body.trains.find((r: TestBody) => r.name === name) as TestBody;
/** Signs a train's version being built into force (issue 32): only then is it what lines use. */
const approveTrain = (documentId: number) =>
  signIntoForce(
    t.server,
    { planId: t.planId, facilityId: t.facilityId },
    { documentType: 'EquipmentTrain', documentId },
  );
const trainUrl = () => `${t.F}/worst-products/trains/${mac.line1}/override`;
const itemUrl = () => `${t.F}/worst-products/equipment/${mac.equipment.E3}/override`;

beforeAll(async () => {
  mac = await buildMacFacility(t.server, t.facilityId, { onTrains: true });
  ({ line1: train1, line2: train2 } = mac.trains!);
});

describe('GET {F}/worst-products', () => {
  it('is refused without WorstProductOverride Get (trains) or EquipmentWiseWorstProduct Get', async () => {
    const trainsOnly = await person('Trains', { WorstProductOverride: ['Get'] });
    const itemsOnly = await person('Items', { EquipmentWiseWorstProduct: ['Get'] });
    expect((await trains(itemsOnly.token)).status).toBe(403);
    expect((await items(trainsOnly.token)).status).toBe(403);
    expect((await trains(trainsOnly.token)).status).toBe(200);
    expect((await items(itemsOnly.token)).status).toBe(200);
  });

  it('names the worst product of each train and item as computed by hand, and why', async () => {
    const res = await trains();
    expect(res.status).toBe(200);
    const [line1, line2] = ['Line 1', 'Line 2'].map((n) =>
      res.body.trains.find((r: TestBody) => r.name === n),
    );
    expect(line1.computed).toMatchObject({
      productId: mac.products.B,
      product: 'B',
      reason: { attribute: 'lowestMaco', unit: 'mg', runnerUp: { product: 'A' } },
    });
    expect(line1.computed.lowestMaco).toBeCloseTo(250, 9);
    expect(line1.computed.reason.runnerUp.value).toBeCloseTo(1000, 9);
    expect(line1.computed.reason.text).toBe('Lowest MACO: 250 mg (next worst A: 1,000 mg)');
    expect(line1).toMatchObject({
      worstCase: 'B',
      override: null,
      trainId: train1,
      trainName: 'Train 1',
    });
    expect(line2.computed.product).toBe('D');
    expect(line2.computed.lowestMaco).toBeCloseTo(200, 9);
    expect(line2.computed.reason.runnerUp.value).toBeCloseTo(266.6667, 3);

    const equipment = (await items()).body.equipment as TestBody[];
    const worstOn = Object.fromEntries(equipment.map((e) => [e.name, e.computed.product]));
    expect(worstOn).toEqual({ E1: 'B', E2: 'B', E3: 'D' });
  });
});

describe('an override of the worst-case product', () => {
  const body = (extra: TestBody = {}) => ({
    productId: mac.products.A,
    justification: 'A is the hardest to clean on Line 1 (coupon study CS-12)',
    reason: 'Cleanability study',
    ...extra,
  });

  it('is refused without the right permission, each route its own', async () => {
    const reader = await person('Reader', { WorstProductOverride: ['Get'] });
    const adder = await person('Adder', {
      EquipmentWiseWorstProduct: ['Add'],
      ApprovalPolicy: ['Sign'],
    });
    const password = { password: reader.password, keepComputedLimit: true };
    expect((await t.call('POST', trainUrl(), body(password), reader.token)).status).toBe(403);
    expect((await t.call('PUT', trainUrl(), body(password), reader.token)).status).toBe(403);
    expect(
      (await t.call('DELETE', `${trainUrl()}?overrideId=1&reason=x`, undefined, reader.token))
        .status,
    ).toBe(403);
    // The item's Add does not add a train's override.
    const asAdder = body({ password: adder.password, keepComputedLimit: true });
    expect((await t.call('POST', trainUrl(), asAdder, adder.token)).status).toBe(403);
  });

  it('needs a justification and the signer’s password; a wrong one is refused and audited', async () => {
    const without = await t.call('POST', trainUrl(), {
      ...body({ password: ADMIN.password }),
      justification: ' ',
    });
    expect(without.status).toBe(422);
    expect(without.body.errors[0].property).toBe('justification');
    const unsigned = await t.call('POST', trainUrl(), body({ keepComputedLimit: true }));
    expect(unsigned.status).toBe(422);
    expect(unsigned.body.errors[0].property).toBe('password');
    const wrong = await t.call(
      'POST',
      trainUrl(),
      body({ keepComputedLimit: true, password: 'not-the-password' }),
    );
    expect(wrong.status).toBe(422);
    const [failed] = await t.server.db.query<{ action: string }>(
      `select action from audit_log where domain = 'Authentication' order by id desc limit 1`,
    );
    expect(failed!.action).toBe('SignatureFailed');
    const noSign = await person('No signer', { WorstProductOverride: ['Get', 'Add'] });
    const refused = await t.call(
      'POST',
      trainUrl(),
      body({ keepComputedLimit: true, password: noSign.password }),
      noSign.token,
    );
    expect(refused.status).toBe(403);
    expect(await t.server.db.query(`select 1 from worst_product_overrides`)).toEqual([]);
  });

  it('never loosens the limit: a less strict product is refused unless the computed limit is kept', async () => {
    const looser = await t.call('POST', trainUrl(), body({ password: ADMIN.password }));
    expect(looser.status).toBe(422);
    expect(looser.body.errors[0].property).toBe('productId');
    expect(looser.body.message).toContain('would loosen the limit');
    const same = await t.call(
      'POST',
      trainUrl(),
      body({ productId: mac.products.B, password: ADMIN.password }),
    );
    expect(same.status).toBe(422);
    const notOnTrain = await t.call(
      'POST',
      trainUrl(),
      body({ productId: mac.products.C, password: ADMIN.password, keepComputedLimit: true }),
    );
    expect(notOnTrain.status).toBe(422);
    expect(notOnTrain.body.errors[0].property).toBe('productId');
    expect(await t.server.db.query(`select 1 from worst_product_overrides`)).toEqual([]);
  });

  it('is signed, kept with its lineage, audited, replaced and withdrawn', async () => {
    const res = await t.call(
      'POST',
      trainUrl(),
      body({ keepComputedLimit: true, password: ADMIN.password }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      worstCase: 'A',
      computed: { product: 'B' },
      override: {
        computedProduct: 'B',
        product: 'A',
        keepComputedLimit: true,
        groupLimitProduct: 'B',
        justification: body().justification,
        meaning: 'Approve worst-case override',
        trainId: train1,
        trainEquipmentIds: [mac.equipment.E1, mac.equipment.E2],
      },
    });
    expect(res.body.override.groupLimit).toBeCloseTo(250, 9);
    // On today's data too, the study is judged against B's 250 mg, with nothing to review.
    expect(res.body.overrideNow).toMatchObject({ limitProduct: 'B', review: null });
    expect(res.body.overrideNow.limit).toBeCloseTo(250, 9);
    expect(res.body.override.signedBy).toMatch(/\S/);
    expect(res.body.override.text).toContain(
      'A chosen as the worst case instead of the computed B',
    );
    expect(await line('Line 1')).toMatchObject({ worstCase: 'A', override: { product: 'A' } });
    // A second add is refused: the one in force is replaced (PUT) naming it.
    expect(
      (
        await t.call(
          'POST',
          trainUrl(),
          body({ keepComputedLimit: true, password: ADMIN.password }),
        )
      ).status,
    ).toBe(409);

    const signatures = await t.call(
      'GET',
      `${t.F}/signatures?documentType=TrainWorstProductOverride&documentId=${train1}`,
    );
    expect(signatures.status).toBe(200);
    expect(signatures.body.signatures).toHaveLength(1);
    expect(signatures.body.signatures[0]).toMatchObject({
      id: res.body.override.signatureId,
      meaning: 'Approve worst-case override',
      versionNumber: 1,
      valid: true,
    });
    const [audit] = await t.server.db.query<{
      action: string;
      reason: string;
      new_values: TestBody;
    }>(
      `select action, reason, new_values from audit_log
        where domain = 'TrainWorstProductOverride' order by id desc limit 1`,
    );
    expect(audit).toMatchObject({
      action: 'Override',
      reason: 'Cleanability study',
      new_values: { computedProduct: 'B', product: 'A', keepComputedLimit: true },
    });

    const withdrawn = await t.call(
      'DELETE',
      `${trainUrl()}?overrideId=${res.body.override.id}&reason=${encodeURIComponent('Study done')}`,
    );
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toMatchObject({ worstCase: 'B', override: null });
    const [ended] = await t.server.db.query<{ end_reason: string }>(
      `select end_reason from worst_product_overrides where id = $1`,
      [res.body.override.id],
    );
    expect(ended!.end_reason).toBe('Study done');
    // What was signed is kept as signed.
    await expect(
      t.server.db.query(`update worst_product_overrides set product = 'Z' where id = $1`, [
        res.body.override.id,
      ]),
    ).rejects.toThrow();
  });

  it('keeps the computed limit for a less strict product on an item, and is replaced by PUT', async () => {
    // On E3, D (200 mg) is the computed worst; C (266.67 mg) is less strict: only keeping D's.
    const added = await t.call('POST', itemUrl(), {
      productId: mac.products.C,
      justification: 'C leaves a film on the E3 gaskets',
      keepComputedLimit: true,
      password: ADMIN.password,
      reason: 'Gasket residue',
    });
    expect(added.status).toBe(200);
    expect(added.body.override).toMatchObject({ product: 'C', groupLimitProduct: 'D' });
    const again = (method: string, replaces?: number) =>
      t.call(method, itemUrl(), {
        productId: mac.products.C,
        justification: 'again',
        keepComputedLimit: true,
        ...(replaces === undefined ? {} : { replaces }),
        password: ADMIN.password,
        reason: 'again',
      });
    const stale = await again('PUT');
    expect(stale.status).toBe(422);
    expect(stale.body.errors[0].property).toBe('replaces');
    expect((await again('PUT', added.body.override.id + 1000)).status).toBe(409);
    // Add and Modify are separate rights: a POST never replaces, a PUT names what it replaces.
    const postReplacing = await again('POST', added.body.override.id);
    expect(postReplacing.status).toBe(422);
    expect(postReplacing.body.errors[0].property).toBe('replaces');
    const replaced = await t.call('PUT', itemUrl(), {
      productId: mac.products.C,
      justification: 'C leaves a film on the E3 gaskets and seals',
      keepComputedLimit: true,
      replaces: added.body.override.id,
      password: ADMIN.password,
      reason: 'Seals too',
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.override.justification).toBe(
      'C leaves a film on the E3 gaskets and seals',
    );
    const signatures = await t.call(
      'GET',
      `${t.F}/signatures?documentType=EquipmentWiseWorstProduct&documentId=${mac.equipment.E3}`,
    );
    expect(signatures.body.signatures.map((s: TestBody) => s.versionNumber)).toEqual([1, 2]);
  });
});

describe('the lineage of an override in force', () => {
  it('shows in the ranking, its report, the cleaning assessment and its report', async () => {
    // E3's override (C chosen instead of D, D's 200 mg kept) is in force from the test before.
    const justification = 'C leaves a film on the E3 gaskets and seals';
    const ranking = await t.call('GET', `${t.F}/limits/worst-case-ranking`);
    expect(ranking.status).toBe(200);
    expect(ranking.body.overrides).toHaveLength(1);
    expect(ranking.body.overrides[0]).toMatchObject({
      kind: 'equipment',
      target: 'E3',
      computedProduct: 'D',
      product: 'C',
      groupLimitProduct: 'D',
      justification,
    });
    expect(ranking.body.overrides[0].text).toContain(
      'C chosen as the worst case instead of the computed D',
    );

    const reports = reportKit(t);
    const report = await reports.generate({ kind: 'worst-case-ranking' });
    expect(report.error).toBeNull();
    const pdf = await reports.pdfOf(`/reports/worst-case-ranking/${report.id}/pdf`);
    expect(pdf.text).toContain('Worst-case overrides in force');
    expect(pdf.text).toContain(justification);
    expect(pdf.text).toContain('Approve worst-case override');
    const { sheets } = await reports.xlsxOf(`/reports/worst-case-ranking/${report.id}/xlsx`);
    const [header, row] = sheets.get('Overrides')!;
    expect(header![3]).toBe('Chosen worst case');
    expect(row!.slice(0, 4)).toEqual(['Equipment', 'E3', 'D', 'C']);
    expect(row![4]).toBeCloseTo(200, 9);
    expect(row![6]).toBe(justification);

    // A train's override shows on that train's worst case in the assessment, in words.
    const line2 = await line('Line 2');
    const signed = await t.call('POST', `${t.F}/worst-products/trains/${mac.line2}/override`, {
      productId: mac.products.C,
      justification: 'C is the hardest to clean on Line 2',
      keepComputedLimit: true,
      password: ADMIN.password,
      reason: 'Cleanability',
    });
    expect(signed.status).toBe(200);
    expect(line2.override).toBeNull();
    const started = await t.call('POST', `${t.F}/cleaning-assessments`, {});
    expect(started.status).toBe(200);
    const id = started.body.cleaningAssessment.id as number;
    let assessment: TestBody = started.body.cleaningAssessment;
    for (const deadline = Date.now() + 60_000; assessment.progress.state !== 'done';) {
      expect(assessment.progress.state).not.toBe('failed');
      if (Date.now() > deadline) throw new Error('the assessment did not finish');
      await new Promise((r) => setTimeout(r, 100));
      assessment = (await t.call('GET', `${t.F}/cleaning-assessments/${id}`)).body
        .cleaningAssessment;
    }
    const worst = (assessment.result.worstCases as TestBody[]).find((w) => w.train === 'Line 2')!;
    expect(worst.override).toContain('C chosen as the worst case instead of the computed D');
    expect(worst.override).toContain('C is the hardest to clean on Line 2');
    // The same worst case as GET worst-products: computed D, validated on the override's C.
    expect(worst).toMatchObject({ product: 'D', worstCase: 'C' });
    expect(
      (assessment.result.worstCases as TestBody[]).find((w) => w.train === 'Line 1')!.override,
    ).toBeNull();
    expect((assessment.result.overrides as TestBody[]).map((o) => o.target).sort()).toEqual([
      'E3',
      'Train 2',
    ]);
    const printed = await reports.generate({
      kind: 'cleaning-assessment',
      cleaningAssessmentId: id,
    });
    expect(printed.error).toBeNull();
    const assessmentPdf = await reports.pdfOf(`/reports/cleaning-assessment/${printed.id}/pdf`);
    expect(assessmentPdf.text).toContain('Worst-case overrides in force');
    expect(assessmentPdf.text).toContain('C is the hardest to clean on Line 2');
  });
});

describe('an override follows its equipment train', () => {
  it('is refused for a production on no train (422 on trainId), changing nothing', async () => {
    const made = await t.call('POST', `${t.F}/productions`, {
      name: 'Line 3',
      equipmentIds: [mac.equipment.E1],
      productIds: [mac.products.A, mac.products.B],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const before = await t.server.db.query('select id from worst_product_overrides');
    const res = await t.call(
      'POST',
      `${t.F}/worst-products/trains/${made.body.result.id}/override`,
      {
        productId: mac.products.A,
        justification: 'A is the hardest to clean',
        keepComputedLimit: true,
        password: ADMIN.password,
        reason: 'Cleanability',
      },
    );
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ property: 'trainId' });
    expect(res.body.errors[0].constraints.train).toContain(
      'Put the production on an equipment train first',
    );
    expect(await t.server.db.query('select id from worst_product_overrides')).toEqual(before);
  });

  it('is not applied once its train’s equipment changed, and applies again when replaced', async () => {
    // Line 2's override (C instead of D) is in force from the tests before, on Train 2 (E3).
    const e4 = await t.call('POST', `${t.F}/equipments`, {
      name: 'E4',
      surfaceArea: { value: 1, unit: 'sqm' },
    });
    expect(e4.status, JSON.stringify(e4.body)).toBe(200);
    const train = await t.call('GET', `${t.F}/equipment-trains/${train2}`);
    const edited = await t.call('POST', `${t.F}/equipment-trains/${train2}`, {
      equipmentIds: [mac.equipment.E3, e4.body.result.id],
      version: train.body.version,
      reason: 'Holding tank added',
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    // The edit is a draft (version 2) until it is approved with signatures (issue 32).
    await approveTrain(train2);
    const changed = await line('Line 2');
    expect(changed).toMatchObject({
      computed: { product: 'D' },
      override: { product: 'C', trainId: train2, trainEquipmentIds: [mac.equipment.E3] },
      worstCase: 'D',
      overrideNow: { applies: false },
    });
    expect(changed.overrideNow.review).toBe(
      "Signed for an earlier version of the train 'Train 2' (E3 then, E3, E4 now): not applied until it is reviewed, replaced or withdrawn",
    );
    const replaced = await t.call('PUT', `${t.F}/worst-products/trains/${mac.line2}/override`, {
      productId: mac.products.C,
      justification: 'C is the hardest to clean on Line 2, tank included',
      keepComputedLimit: true,
      replaces: changed.override.id,
      password: ADMIN.password,
      reason: 'Reviewed for the tank',
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body).toMatchObject({
      worstCase: 'C',
      override: { trainEquipmentIds: [mac.equipment.E3, e4.body.result.id] },
      overrideNow: { applies: true, review: null },
    });
  });
});

describe('the signatures of a train’s overrides and of those signed on a production before', () => {
  /**
   * An override signed on a production before overrides followed trains, as it was kept: its
   * signature 'WorstProductOverride' with the production's id, its row ended (in force it would
   * have been carried to a train by migration 20261220020100).
   */
  async function signedOnProduction(productionId: number, productId: number) {
    const db = t.server.db;
    const actor = await adminActor(db);
    const key = await signatureKey(t.server.config, () => undefined);
    const kept = {
      production_id: productionId,
      train_id: null,
      train_equipment_ids: null,
      equipment_id: null,
      computed_product_id: null,
      computed_product: null,
      computed_lowest_maco: null,
      product_id: productId,
      product: 'A',
      lowest_maco: null,
      keep_computed_limit: true,
      group_limit: null,
      group_limit_product: null,
      justification: 'Signed on the production',
    };
    return db.transaction(async (tx) => {
      const content = overrideContent(kept);
      const signature = await writeActSignature(
        tx,
        actor,
        key,
        { planId: t.planId, facilityId: t.facilityId },
        {
          documentType: 'WorstProductOverride',
          documentId: productionId,
          meaning: WORST_OVERRIDE_MEANING,
          content,
          reason: 'Before trains',
        },
      );
      await tx.query(
        `insert into worst_product_overrides (facility_id, production_id, product_id, product,
           keep_computed_limit, justification, signature_id, ended_at, ended_by, end_reason)
         values ($1, $2, $3, 'A', true, $4, $5, now(), $6, 'Study done')`,
        [t.facilityId, productionId, productId, kept.justification, signature.id, actor.userId],
      );
      return signature.id;
    });
  }

  it('never share a document: a train whose id is an old production’s keeps its own list and count', async () => {
    const train = await t.call('POST', `${t.F}/equipment-trains`, {
      name: 'Train 3',
      equipmentIds: [mac.equipment.E1, mac.equipment.E2],
    });
    expect(train.status, JSON.stringify(train.body)).toBe(200);
    const trainId = train.body.result.id as number;
    await approveTrain(trainId);
    const production = await t.call('POST', `${t.F}/productions`, {
      name: 'Line 4',
      equipmentIds: [mac.equipment.E1, mac.equipment.E2],
      productIds: [mac.products.A, mac.products.B],
      trainId,
    });
    expect(production.status, JSON.stringify(production.body)).toBe(200);
    // The colliding production: the one whose id is the train's, else one made with that id.
    const [taken] = await t.server.db.query<{ id: number }>(
      'select id from productions where id = $1',
      [trainId],
    );
    if (!taken)
      await t.server.db.query(
        `insert into productions (id, facility_id, name, equipment_ids, product_ids)
           overriding system value values ($1, $2, 'Old line', $3, $4)`,
        [trainId, t.facilityId, [mac.equipment.E1], [mac.products.A]],
      );
    const before = await signedOnProduction(trainId, mac.products.A);

    const signed = await t.call(
      'POST',
      `${t.F}/worst-products/trains/${production.body.result.id}/override`,
      {
        productId: mac.products.A,
        justification: 'A is the hardest to clean on Train 3',
        keepComputedLimit: true,
        password: ADMIN.password,
        reason: 'Cleanability',
      },
    );
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body.override.trainId).toBe(trainId);

    const list = async (documentType: string) =>
      (await t.call('GET', `${t.F}/signatures?documentType=${documentType}&documentId=${trainId}`))
        .body.signatures as TestBody[];
    // The production's signature alone under its type, and still valid (21 CFR 11.70).
    expect(await list('WorstProductOverride')).toEqual([
      expect.objectContaining({ id: before, versionNumber: 1, valid: true }),
    ]);
    // The train's first override is its version 1: the production's does not count.
    expect(await list('TrainWorstProductOverride')).toEqual([
      expect.objectContaining({
        id: signed.body.override.signatureId,
        documentType: 'TrainWorstProductOverride',
        documentId: trainId,
        versionNumber: 1,
        meaning: 'Approve worst-case override',
        valid: true,
      }),
    ]);
    // Every signature of the facility checked again, as the audit trail's verify does: all valid.
    const verify = await t.call('GET', `${t.F}/audit_logs/verify`);
    expect(verify.status, JSON.stringify(verify.body)).toBe(200);
    expect(verify.body.signatures.checked).toBeGreaterThanOrEqual(2);
    expect(verify.body.signatures.invalid).toEqual([]);
  });
});
