import { beforeAll, describe, expect, it } from 'vitest';
import { testMonograph } from '#server/test/hbel-test-data.ts';
import { reportKit } from '#server/test/report-test-kit.ts';
import { buildMacFacility } from '#server/test/mac-test-data.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { personWith, type Person } from '#server/test/people.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { ADMIN } from '#server/test/test-server.ts';
import { SAMPLE_FILES } from '#server/modules/attachments/attachment-test-files.ts';
import { sendMultipart } from '#server/modules/attachments/attachment-test-client.ts';

/*
 * Issue 32, the plan's HBEL library: a monograph is created with its PDE computed per EMA 2014
 * §4.1, signed by the toxicologist's step of the signing facility's approval policy, linked to a
 * facility's active (whose PDE, and so the MAC matrix, then follow it), overridden at the site
 * only with a justification; every route guarded and scoped to the plan.
 */

const t = useFacilityTestServer();
const LIB = () => `/api/v2/plans/${t.planId}/hbel-library`;
const reports = reportKit(t, () => t.F);

// ICH Q3C 2-MTHF numbers: 250 mg/kg/day × 50 kg / (5·10·5·1·1) = 12500 / 250 = 50 mg/day.
const monograph = (substance: string) => ({
  ...testMonograph(substance),
  oel: { value: 20, unit: 'ug/m3' },
  ade: { value: 0.5, unit: 'mg' },
});

let toxicologist: Person;
let otherSigner: Person;
let reader: Person;
let noRights: Person;

const person = (roleName: string, rights: Record<string, string[]>) =>
  personWith(t, roleName, rights);

const sign = (id: number, action: string, as: Person) =>
  t.call(
    'POST',
    `${t.F}/signatures`,
    { documentType: 'HbelMonograph', documentId: id, action, password: as.password },
    as.token,
  );

const pair = async (previous: string, next: string): Promise<TestBody> => {
  const res = await t.call('GET', `${t.F}/mac-matrix/pairs?previous=${previous}&next=${next}`);
  expect(res.status).toBe(200);
  return res.body.data[0];
};

const active = async (id: number) => (await t.call('GET', `${t.F}/apis/${id}`)).body;
const gammaId = async () => {
  const [row] = await t.server.db.query<{ id: number }>(
    `select id from actives where facility_id = $1 and name = 'Gamma'`,
    [t.facilityId],
  );
  return row!.id;
};

beforeAll(async () => {
  await buildMacFacility(t.server, t.facilityId);
  toxicologist = await person('Toxicologist', { ApprovalPolicy: ['Get', 'Sign'], API: ['Get'] });
  otherSigner = await person('QA approver', { ApprovalPolicy: ['Get', 'Sign'], API: ['Get'] });
  reader = await person('Reader', { API: ['Get'] });
  noRights = await person('Nobody', { Equipment: ['Get'] });
  const [role] = await t.server.db.query<{ id: number }>(
    `select id from roles where facility_id = $1 and name = 'Toxicologist'`,
    [t.facilityId],
  );
  // No toxicologist permission exists in the permission map: the approval policy's step names
  // the toxicologist role, so only its holders may approve a monograph.
  const current = await t.call('GET', `${t.F}/approval_policies?documentType=HbelMonograph`);
  const set = await t.call('POST', `${t.F}/approval_policies`, {
    documentType: 'HbelMonograph',
    steps: [{ order: 1, signerRole: 'Approver', roleIds: [role!.id], minSignatures: 1 }],
    allowSelfApproval: false,
    reason: 'Monographs are approved by the toxicologist',
    version: current.body.approvalPolicy.version,
  });
  expect(set.status).toBe(200);
});

describe('the HBEL library of the plan', () => {
  let id: number;

  it('creates a monograph with its PDE derived (version 1 being built, nothing in force)', async () => {
    const res = await t.call('POST', LIB(), {
      ...monograph('Gamma'),
      signingFacilityId: t.facilityId,
    });
    expect(res.status).toBe(200);
    id = res.body.id;
    expect(res.body.number).toBe(`HBEL-${String(id).padStart(4, '0')}`);
    expect(res.body.status).toBe('BeingBuilt');
    expect(res.body.inForce).toBeNull();
    expect(res.body.draft.pde.value).toBeCloseTo(50, 12);
    expect(res.body.draft.derivation.formula).toMatch(
      /PoD × BW \/ \(F1 × F2 × F3 × F4 × F5 × MF × PK\)/,
    );
    expect(res.body.draft.monograph.bodyWeight).toEqual({ value: 50, unit: 'kg' });
    // The OEL and ADE where given are kept with the monograph, beside the PDE (issue 32).
    expect(res.body.draft.monograph.oel).toEqual({ value: 20, unit: 'ug/m3' });
    expect(res.body.draft.monograph.ade).toEqual({ value: 0.5, unit: 'mg' });
    const [audit] = await t.server.db.query<{ action: string; entity_id: string }>(
      `select action, entity_id from audit_log where domain = 'HbelMonograph' order by id desc limit 1`,
    );
    expect(audit).toEqual({ action: 'Create', entity_id: res.body.number });
  });

  it('refuses a point of departure of the wrong unit and a duplicate substance, changing nothing', async () => {
    const bad = monograph('Delta');
    bad.pointOfDeparture.unit = 'ppm';
    const unit = await t.call('POST', LIB(), { ...bad, signingFacilityId: t.facilityId });
    expect(unit.status).toBe(422);
    const twice = await t.call('POST', LIB(), {
      ...monograph('gamma'),
      signingFacilityId: t.facilityId,
    });
    expect(twice.status).toBe(409);
    const report = monograph('Delta');
    const missing = await t.call('POST', LIB(), {
      ...report,
      pointOfDeparture: { ...report.pointOfDeparture, attachmentId: 999_999 },
      signingFacilityId: t.facilityId,
    });
    expect(missing.status).toBe(422);
    expect((await t.call('GET', LIB())).body.count).toBe(1);
  });

  it('is not linked before it is signed', async () => {
    const gamma = await active(await gammaId());
    const res = await t.call('PUT', `${t.F}/apis/${gamma.id}/hbel-link`, {
      monographId: id,
      version: gamma.version,
      reason: 'Use the library PDE',
    });
    expect(res.status).toBe(409);
  });

  it('is approved only by the toxicologist step', async () => {
    const submitted = await sign(id, 'Submit', { token: t.token, password: ADMIN.password });
    expect(submitted.status).toBe(200);
    expect((await sign(id, 'Approve', otherSigner)).status).toBe(403);
    const approved = await sign(id, 'Approve', toxicologist);
    expect(approved.status).toBe(200);
    expect(approved.body.document.status).toBe('Approved');
    const read = await t.call('GET', `${LIB()}/${id}`);
    expect(read.body.inForceVersionNumber).toBe(1);
    expect(read.body.inForce.pde.value).toBeCloseTo(50, 12);
  });

  it('gives a linked active its PDE, and the MAC matrix follows, with the lineage on its read', async () => {
    // Before: Gamma's own PDE, 5 mg/day.
    const before = await pair('C', 'D');
    const gammaBefore = await active(await gammaId());
    const res = await t.call('PUT', `${t.F}/apis/${gammaBefore.id}/hbel-link`, {
      monographId: id,
      version: gammaBefore.version,
      reason: 'Use the library PDE',
    });
    expect(res.status).toBe(200);
    expect(res.body.lineage).toMatchObject({ monographId: id, versionNumber: 1, override: null });
    const gamma = await active(gammaBefore.id);
    expect(gamma.pde.value).toBeCloseTo(50, 12);
    expect(gamma.pdeSource).toBe(
      `HBEL library HBEL-${String(id).padStart(4, '0')} (Gamma), version 1`,
    );
    expect(gamma.hbelLineage).toHaveLength(1);
    expect(gamma.hbelLineage[0].libraryPde.value).toBeCloseTo(50, 12);
    // MACO by the HBEL criterion, C → D: PDE × MBS(D) / MDD(D) = 50 mg × 80 000 000 mg / 300 mg
    // = 13 333 333.33 mg (before: 5 × 80 000 000 / 300 = 1 333 333.33 mg).
    const after = await pair('C', 'D');
    const moved = Object.keys(after.criteria).filter(
      (k) => after.criteria[k]?.value !== before.criteria[k]?.value,
    );
    expect(moved).toHaveLength(1);
    expect(before.criteria[moved[0]!].value).toBeCloseTo(1_333_333.333_333, 4);
    expect(after.criteria[moved[0]!].value).toBeCloseTo(13_333_333.333_333, 3);
    const used = await t.call('GET', `${LIB()}/${id}/where-used`);
    expect(used.body.usedBy).toEqual([
      expect.objectContaining({ activeId: gamma.id, activeName: 'Gamma', versionNumber: 1 }),
    ]);
  });

  it('overrides the PDE at the site only with a signed justification, audited', async () => {
    const gamma = await active(await gammaId());
    const url = `${t.F}/apis/${gamma.id}/hbel-link`;
    const justification = 'Paediatric products at this site: 20 kg body weight (EMA Q&A 2018)';
    const body = {
      monographId: id,
      pdeOverride: { value: 20, unit: 'mg' },
      justification,
      version: gamma.version,
      reason: 'Site value',
    };
    const without = await t.call('PUT', url, {
      ...body,
      justification: undefined,
      password: ADMIN.password,
    });
    expect(without.status).toBe(422);
    // Signed: no password, a wrong one, or a signer without the right to sign change nothing.
    const unsigned = await t.call('PUT', url, body);
    expect(unsigned.status).toBe(422);
    expect(unsigned.body.errors[0].property).toBe('password');
    const wrong = await t.call('PUT', url, { ...body, password: 'not-the-password' });
    expect(wrong.status).toBe(422);
    const modifier = await person('Site pharmacist', { API: ['Get', 'Modify'] });
    const noSign = await t.call(
      'PUT',
      url,
      { ...body, password: modifier.password },
      modifier.token,
    );
    expect(noSign.status).toBe(403);
    expect((await active(gamma.id)).pde.value).toBeCloseTo(50, 12);
    expect(
      await t.server.db.query(`select 1 from hbel_pde_overrides where active_id = $1`, [gamma.id]),
    ).toEqual([]);

    const res = await t.call('PUT', url, { ...body, password: ADMIN.password });
    expect(res.status).toBe(200);
    const after = await active(gamma.id);
    expect(after.pde).toEqual({ value: 20, unit: 'mg' });
    expect(after.hbelLineage[0]).toMatchObject({
      versionNumber: 1,
      override: { value: 20, unit: 'mg' },
      justification,
      overrideSignature: { meaning: 'Approve site PDE override' },
    });
    expect(after.hbelLineage[0].overrideSignature.signedBy).toMatch(/\S/);
    expect(after.hbelLineage[0].libraryPde.value).toBeCloseTo(50, 12);
    // The signature is listed with the others, and checks out against the kept override.
    const signatures = await t.call(
      'GET',
      `${t.F}/signatures?documentType=HbelOverride&documentId=${gamma.id}`,
    );
    expect(signatures.status).toBe(200);
    const [signature] = signatures.body.signatures;
    expect(signature).toMatchObject({
      id: after.hbelLineage[0].overrideSignature.id,
      action: 'Approve',
      meaning: 'Approve site PDE override',
      versionNumber: 1,
      valid: true,
    });
    // 20 × 80 000 000 / 300 = 5 333 333.33 mg.
    const cd = await pair('C', 'D');
    expect(
      Object.values(cd.criteria).some(
        (q) => Math.abs((q as TestBody).value - 5_333_333.333) < 0.01,
      ),
    ).toBe(true);
    const [audit] = await t.server.db.query<{ action: string; new_values: TestBody }>(
      `select action, new_values from audit_log where domain = 'API' order by id desc limit 1`,
    );
    expect(audit!.action).toBe('HbelOverride');
    expect(audit!.new_values.justification).toBe(justification);
    // Its own form may not change a linked PDE behind the lineage's back.
    const edit = await t.call('POST', `${t.F}/apis/${gamma.id}`, {
      pde: { value: 3, unit: 'mg' },
      version: after.version,
      reason: 'Typed again',
    });
    expect(edit.status).toBe(409);
    expect((await active(gamma.id)).pde).toEqual({ value: 20, unit: 'mg' });
  });

  it('shows the lineage in the derivation of a pair and in the limits reports', async () => {
    const number = `HBEL-${String(id).padStart(4, '0')}`;
    const explain = await t.call('GET', `${t.F}/mac-matrix/explain?previous=C&next=D`);
    expect(explain.status).toBe(200);
    const sources = JSON.stringify(explain.body.explanation);
    expect(sources).toContain(`PDE, from HBEL library ${number} (Gamma), version 1: PDE 50 mg`);
    expect(sources).toContain('site override 20 mg (justification: Paediatric products');
    expect(sources).toMatch(/signed by [^"]+ on \d{4}-\d{2}-\d{2}/);
    // As of a moment: the lineage the active had then (kept versions of the active).
    const asOf = encodeURIComponent(new Date().toISOString());
    const then = await t.call('GET', `${t.F}/mac-matrix/explain?previous=C&next=D&asOf=${asOf}`);
    expect(then.status).toBe(200);
    expect(JSON.stringify(then.body.explanation)).toContain('site override 20 mg');
    for (const path of ['limits/equipment', 'limits/productions']) {
      const report = await t.call('GET', `${t.F}/${path}`);
      expect(report.status).toBe(200);
      expect(report.body.pdeLineage).toEqual([
        { active: 'Gamma', lineage: expect.stringContaining(`${number} (Gamma), version 1`) },
      ]);
      expect(report.body.pdeLineage[0].lineage).toContain('site override 20 mg');
    }
    // The equipment limits report's PDF and workbook carry it too.
    const report = await reports.generate({ kind: 'equipment-limits' });
    expect(report.error).toBeNull();
    const pdf = await reports.pdfOf(`/reports/equipment-limits/${report.id}/pdf`);
    expect(pdf.text).toContain('PDEs from the HBEL library');
    expect(pdf.text.replace(/\s+/g, ' ')).toContain(
      `Gamma: HBEL library ${number} (Gamma), version 1`,
    );
    const { sheets } = await reports.xlsxOf(`/reports/equipment-limits/${report.id}/xlsx`);
    const [header, row] = sheets.get('PDE lineage')!;
    expect(header).toEqual(['Active', 'PDE lineage']);
    expect(row![0]).toBe('Gamma');
    expect(String(row![1])).toContain('justification: Paediatric products');
  });

  it('unlinks an active, which keeps its PDE as its own value from then on', async () => {
    const gamma = await active(await gammaId());
    const res = await t.call('PUT', `${t.F}/apis/${gamma.id}/hbel-link`, {
      monographId: null,
      version: gamma.version,
      reason: 'Site derivation of its own',
    });
    expect(res.status).toBe(200);
    expect(res.body.lineage).toBeNull();
    const after = await active(gamma.id);
    expect(after.hbelLineage).toEqual([]);
    expect(after.pde).toEqual({ value: 20, unit: 'mg' });
    expect((await t.call('GET', `${LIB()}/${id}/where-used`)).body.usedBy).toEqual([]);
    const edit = await t.call('POST', `${t.F}/apis/${gamma.id}`, {
      pde: { value: 3, unit: 'mg' },
      version: after.version,
      reason: 'Site value',
    });
    expect(edit.status).toBe(200);
  });

  it('keeps the approved version in force while a new one is built, and lists the versions', async () => {
    const current = await t.call('GET', `${LIB()}/${id}`);
    const next = { ...monograph('Gamma'), factors: { f1: 5, f2: 10, f3: 10, f4: 1, f5: 1 } };
    const res = await t.call('POST', `${LIB()}/${id}`, {
      ...next,
      version: current.body.version,
      reason: 'Shorter study: F3 10',
    });
    expect(res.status).toBe(200);
    // 250 × 50 / (5·10·10·1·1) = 12500 / 500 = 25 mg/day, not yet in force.
    expect(res.body.draft.pde.value).toBeCloseTo(25, 12);
    expect(res.body.inForce.pde.value).toBeCloseTo(50, 12);
    expect(res.body.draftVersionNumber).toBe(2);
    const stale = await t.call('POST', `${LIB()}/${id}`, {
      ...next,
      version: current.body.version,
      reason: 'Again',
    });
    expect(stale.status).toBe(409);
    const versions = await t.call('GET', `${LIB()}/${id}/versions`);
    expect(versions.body.versions.map((v: TestBody) => [v.versionNumber, v.status])).toEqual([
      [1, 'Approved'],
      [2, 'BeingBuilt'],
    ]);
  });

  it('guards each route by its permission', async () => {
    const gamma = await active(await gammaId());
    const body = { ...monograph('Epsilon'), signingFacilityId: t.facilityId };
    expect((await t.call('GET', LIB(), undefined, reader.token)).status).toBe(200);
    expect((await t.call('GET', LIB(), undefined, noRights.token)).status).toBe(403);
    expect((await t.call('GET', `${LIB()}/${id}`, undefined, noRights.token)).status).toBe(403);
    expect((await t.call('GET', `${LIB()}/${id}/versions`, undefined, noRights.token)).status).toBe(
      403,
    );
    expect(
      (await t.call('GET', `${LIB()}/${id}/where-used`, undefined, noRights.token)).status,
    ).toBe(403);
    expect((await t.call('POST', LIB(), body, reader.token)).status).toBe(403);
    expect(
      (await t.call('POST', `${LIB()}/${id}`, { ...body, version: 1, reason: 'x' }, reader.token))
        .status,
    ).toBe(403);
    expect(
      (
        await t.call(
          'PUT',
          `${t.F}/apis/${gamma.id}/hbel-link`,
          { monographId: null, version: gamma.version, reason: 'x' },
          reader.token,
        )
      ).status,
    ).toBe(403);
  });

  it("is not read by another plan's users, nor through another plan's path", async () => {
    const db = t.server.db;
    const [plan] = await db.query<{ id: number }>(
      `insert into plans (name) values ('Other plan') returning id`,
    );
    const [group] = await db.query<{ id: number }>(
      `insert into facility_groups (plan_id, name) values ($1, 'Other group') returning id`,
      [plan!.id],
    );
    const [facility] = await db.query<{ id: number }>(
      `insert into facilities (plan_id, facility_group_id, name, product_type, tier)
       values ($1, $2, 'Other site', 'product', 'full') returning id`,
      [plan!.id, group!.id],
    );
    const user = await buildUser(db, {
      facilityIds: [facility!.id],
      permissions: permissionsWith({ API: ['Get', 'Add'] }),
    });
    await db.query(`update users set plan_id = $1 where id = $2`, [plan!.id, user.id]);
    const token = await t.server.login(user.username, user.password);
    expect((await t.call('GET', LIB(), undefined, token)).status).toBe(403);
    expect((await t.call('GET', `${LIB()}/${id}`, undefined, token)).status).toBe(403);
    const own = await t.call('GET', `/api/v2/plans/${plan!.id}/hbel-library`, undefined, token);
    expect(own.status).toBe(200);
    expect(own.body.count).toBe(0);
    expect(
      (await t.call('GET', `/api/v2/plans/${plan!.id}/hbel-library/${id}`, undefined, token))
        .status,
    ).toBe(404);
  });
});

describe('the study report of a point of departure', () => {
  it('is an attachment kept in the plan, named on the monograph with its study reference', async () => {
    // A document kept with a method of the facility: any attachment of the plan may be the report.
    const method = await sendMultipart(
      t.server,
      t.token,
      `${t.F}/analytical-method`,
      { name: 'Study report holder', testType: 'TOC' },
      SAMPLE_FILES.pdf,
    );
    expect(method.status).toBe(200);
    const [attachment] = await t.server.db.query<{ id: number }>(
      'select max(id)::int as id from attachments where facility_id = $1',
      [t.facilityId],
    );
    const report = monograph('Epsilon');
    const res = await t.call('POST', LIB(), {
      ...report,
      pointOfDeparture: { ...report.pointOfDeparture, attachmentId: attachment!.id },
      signingFacilityId: t.facilityId,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.draft.monograph.pointOfDeparture).toMatchObject({
      attachmentId: attachment!.id,
      studyReference: '13-week oral gavage study, report TX-0042',
    });
  });
});

describe('the HBEL library in the OpenAPI document', () => {
  it('documents each route of the library and the link', async () => {
    const doc = await t.call('GET', '/api/docs/json');
    const lib = '/api/v2/plans/{plan}/hbel-library';
    const paths = doc.body.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths[lib]!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths[`${lib}/{id}`]!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths[`${lib}/{id}/versions`]!)).toEqual(['get']);
    expect(Object.keys(paths[`${lib}/{id}/where-used`]!)).toEqual(['get']);
    const link = '/api/v2/plans/{plan}/facilities/{facility}/apis/{id}/hbel-link';
    expect(Object.keys(paths[link]!)).toEqual(['put']);
  });
});
