import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import {
  buildMacFacility,
  uncheckedFormula,
  type MacFacility,
} from '#server/test/mac-test-data.ts';
import { setFacilityKind } from '#server/test/test-server.ts';

/*
 * MAC formulas (MACFormula): a controlled record of the facility guarded by its own permission,
 * whose approved version is one more MACO criterion. A → B of the test facility: Alpha (PDE
 * 0.1 mg/day, TDD 10 mg/day) before B (MBS 100 kg, MDD 400 mg): health 25,000 mg, dose 2,500 mg,
 * the general limit 1,000 mg governs. `TDD * MBS / (100000 * MDD)` = 10 × 1e8 / (1e5 × 400) = 25 mg.
 */

const t = useFacilityTestServer();
let facility: MacFacility;
let F: string;
let editor: { token: string; password: string };
let signer: { token: string; password: string };
let reader: string;

async function session(rights: Record<string, string[]>) {
  const user = await buildUser(t.server.db, {
    facilityIds: [t.facilityId],
    permissions: permissionsWith(rights),
  });
  return { token: await t.server.login(user.username, user.password), password: user.password };
}

beforeAll(async () => {
  // The lite tier, without change control, approves a formula directly (issue 32; the full
  // tier's change assessment: mac-formula-change.test.ts).
  await setFacilityKind(t.server, 0, { tier: 'lite' });
  facility = await buildMacFacility(t.server, t.facilityId);
  F = facility.F;
  editor = await session({ MACFormula: ['Get', 'Add', 'Modify'] });
  signer = await session({ MACFormula: ['Get'], ApprovalPolicy: ['Get', 'Sign'] });
  reader = (await session({ MACFormula: ['Get'] })).token;
});

const explainAB = async (query = '') => {
  const res = await t.call('GET', `${F}/mac-matrix/explain?previous=A&next=B${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.explanation as TestBody;
};

const sign = (id: number, action: string, as: { token: string; password: string }) =>
  t.call(
    'POST',
    `${F}/signatures`,
    { documentType: 'MacFormula', documentId: id, action, password: as.password },
    as.token,
  );

describe('MAC formulas: guarded by MACFormula', () => {
  it('refuses a user without MACFormula/Add (403), and one without Get the list', async () => {
    const denied = await t.call(
      'POST',
      `${F}/mac-formulas`,
      { name: 'Not allowed', expression: 'TDD * MBS / (1000 * MDD)' },
      reader,
    );
    expect(denied.status).toBe(403);
    expect(denied.body.errName).toBe('NotAllowed');
    const nobody = (await session({ Product: ['Get'] })).token;
    expect((await t.call('GET', `${F}/mac-formulas`, undefined, nobody)).status).toBe(403);
    expect((await t.call('GET', `${F}/mac-formulas`, undefined, reader)).status).toBe(200);
  });

  it('refuses a formula whose units do not give a mass, naming the term, on the field', async () => {
    const res = await t.call(
      'POST',
      `${F}/mac-formulas`,
      { name: 'Wrong units', expression: 'HBEL + MBS' },
      editor.token,
    );
    expect(res.status).toBe(422);
    expect(res.body.errName).toBe('DataValidationError');
    expect(JSON.stringify(res.body.errors)).toContain(
      "Units do not match: 'HBEL + MBS' adds mg/day and mg",
    );
    const unknown = await t.call(
      'POST',
      `${F}/mac-formulas`,
      { name: 'Unknown', expression: 'PDE_prev * 2' },
      editor.token,
    );
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.body.errors)).toContain("unknown variable 'PDE_prev'");
  });
});

describe('MAC formulas in the limits', () => {
  it('takes part only once approved, then governs where lowest and shows in the derivation', async () => {
    const created = await t.call(
      'POST',
      `${F}/mac-formulas`,
      { name: 'Site dose 1/100000', expression: 'TDD * MBS / (100000 * MDD)' },
      editor.token,
    );
    expect(created.status).toBe(200);
    const id = created.body.result.id as number;
    expect(created.body.result.status).toBe('BeingBuilt');
    const [audit] = await t.server.db.query<{ action: string }>(
      `select action from audit_log where domain = 'MACFormula' and entity_id = $1::text`,
      [id],
    );
    expect(audit?.action).toBe('Create');

    // Being built: not in force, the limit is the general limit's.
    const draft = await explainAB();
    expect(draft.governing).toBe('arl');
    expect(draft.criteria.formula.note).toBe('the facility has no approved MAC formula');
    const beforeApproval = new Date().toISOString();

    expect((await sign(id, 'Submit', editor)).status).toBe(200);
    expect((await sign(id, 'Approve', signer)).status).toBe(200);

    // The approval stores the limits it puts in force, the formula among their input.
    const [snapshot] = await t.server.db.query<{ input: TestBody }>(
      `select input from limits_snapshots where document_type = 'MacFormula' and document_id = $1`,
      [id],
    );
    expect(snapshot?.input.macFormulas).toEqual([
      { id: 'Site dose 1/100000', expression: 'TDD * MBS / (100000 * MDD)', versionNumber: 1 },
    ]);

    const approved = await explainAB();
    expect(approved.governing).toBe('formula');
    expect(approved.maco.result).toEqual({ value: 25, unit: 'mg' });
    expect(approved.maco.note).toBe(
      'governed by formula Site dose 1/100000 (version 1) (active Alpha)',
    );
    const d = approved.criteria.formula;
    expect(d.formula).toBe('Site dose 1/100000 (version 1): MACO = TDD * MBS / (100000 * MDD)');
    expect(d.steps).toEqual([
      {
        symbol: 'Site dose 1/100000 (version 1) (Alpha)',
        expression: 'TDD * MBS / (100000 * MDD) = 10 * 100000000 / (100000 * 400)',
        value: 25,
        unit: 'mg',
      },
    ]);
    expect(d.inputs.map((i: TestBody) => i.source)).toEqual([
      'active Alpha: minimum therapeutic dose',
      'product B: minimum batch size',
      'product B: maximum daily dose',
    ]);
    // The matrix gives the pair the same MACO; a pair where the formula is looser keeps its own.
    const pairs = await t.call('GET', `${F}/mac-matrix/pairs?previous=A&next=B`);
    expect(pairs.body.data[0].maco).toEqual({ value: 25, unit: 'mg' });
    expect(pairs.body.data[0].governing).toBe('formula');
    expect(pairs.body.data[0].criteria.formula).toEqual({ value: 25, unit: 'mg' });

    // The export's pairs carry the formula's criterion beside the built-in ones.
    const exported = await fetch(`${t.server.url}${F}/mac-matrix/export`, {
      headers: { token: t.token },
    });
    expect(exported.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await exported.arrayBuffer());
    const sheet = wb.getWorksheet('Pairs')!;
    const titles = (sheet.getRow(1).values as unknown[]).slice(1);
    const column = titles.indexOf('MAC formula MACO (mg)') + 1;
    expect(column).toBeGreaterThan(0);
    let ab: ExcelJS.Row | undefined;
    sheet.eachRow((row) => {
      if (row.getCell(1).value === 'A' && row.getCell(2).value === 'B') ab = row;
    });
    // 10 mg × 100 000 000 mg / (100 000 × 400 mg) = 25 mg.
    expect(ab!.getCell(column).value).toBeCloseTo(25, 9);

    // As of a moment before its approval the limit is reproduced without it.
    const then = await explainAB(`&asOf=${encodeURIComponent(beforeApproval)}`);
    expect(then.governing).toBe('arl');

    // An edit is a new version being built: the approved one stays in force until approved.
    const read = await t.call('GET', `${F}/mac-formulas/${id}`, undefined, editor.token);
    const edited = await t.call(
      'POST',
      `${F}/mac-formulas/${id}`,
      {
        expression: 'TDD * MBS / (10 * MDD)',
        reason: 'Looser, to show a draft is not in force',
        version: read.body.version,
      },
      editor.token,
    );
    expect(edited.status).toBe(200);
    expect((await explainAB()).maco.result).toEqual({ value: 25, unit: 'mg' });
  });
});

describe('MAC formulas checked again where they are put in force', () => {
  /** What a refused signature must have left as it was: the version, its signatures, limits. */
  async function untouched(id: number) {
    const versions = await t.server.db.query<{ status: string; approved_at: Date | null }>(
      `select status, approved_at from controlled_versions
        where document_type = 'MacFormula' and document_id = $1`,
      [id],
    );
    const signed = await t.server.db.query<{ action: string }>(
      `select action from signatures where document_type = 'MacFormula' and document_id = $1`,
      [id],
    );
    const snapshots = await t.server.db.query(
      `select 1 from limits_snapshots where document_type = 'MacFormula' and document_id = $1`,
      [id],
    );
    const refused = await t.server.db.query<{ new_values: TestBody }>(
      `select new_values from audit_log where domain = 'ElectronicSignature'
          and action = 'SignatureRefused' and entity_id = $1::text order by id`,
      [id],
    );
    return { versions, signed, snapshots, refused: refused.map((r) => r.new_values) };
  }

  it('refuses to approve a submitted version whose units were never checked, and changes nothing', async () => {
    // Written straight into the database in submitted state: no save checked its units.
    const id = await uncheckedFormula(t.server, t.facilityId, {
      name: 'Never checked',
      expression: 'HBEL + MBS',
      submitted: true,
    });
    const res = await sign(id, 'Approve', signer);
    expect(res.status).toBe(422);
    expect(res.body.errName).toBe('DataValidationError');
    expect(res.body.message).toBe(
      "MAC formula 'Never checked' version 1 cannot be put in force: Units do not match: 'HBEL + MBS' adds mg/day and mg. Reject it, correct its expression and submit it again.",
    );
    expect(res.body.errors).toEqual([
      {
        property: 'expression',
        constraints: { units: "Units do not match: 'HBEL + MBS' adds mg/day and mg" },
      },
    ]);
    const after = await untouched(id);
    expect(after.versions).toEqual([{ status: 'BeingApproved', approved_at: null }]);
    expect(after.signed).toEqual([]);
    expect(after.snapshots).toEqual([]);
    // The refusal is kept in the audit trail, as every refused signature is (21 CFR 11.10(e)).
    expect(after.refused).toEqual([
      expect.objectContaining({ attempted: 'Approve', refusal: 'DataValidationError' }),
    ]);

    // Rejected, corrected and submitted again, it is approved as any other.
    expect(
      (
        await t.call(
          'POST',
          `${F}/signatures`,
          {
            documentType: 'MacFormula',
            documentId: id,
            action: 'Reject',
            password: signer.password,
            reason: 'Units do not give a mass',
          },
          signer.token,
        )
      ).status,
    ).toBe(200);
    const read = await t.call(
      'GET',
      `${F}/mac-formulas/${id}?version=draft`,
      undefined,
      editor.token,
    );
    const corrected = await t.call(
      'POST',
      `${F}/mac-formulas/${id}`,
      { expression: 'HBEL * MBS / MDD', reason: 'Units corrected', version: read.body.version },
      editor.token,
    );
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    expect((await sign(id, 'Submit', editor)).status).toBe(200);
    expect((await sign(id, 'Approve', signer)).status).toBe(200);
    expect((await untouched(id)).versions).toEqual([
      { status: 'Approved', approved_at: expect.any(Date) },
    ]);
  });

  it('refuses to submit a version being built whose units were never checked', async () => {
    const id = await uncheckedFormula(t.server, t.facilityId, {
      name: 'Built unchecked',
      expression: 'max(TDD, MBS)',
      submitted: false,
    });
    const res = await sign(id, 'Submit', editor);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      "MAC formula 'Built unchecked' version 1 cannot be submitted: Units do not match: 'max(TDD, MBS)' compares mg/day with mg. Correct its expression and save it.",
    );
    const after = await untouched(id);
    expect(after.versions).toEqual([{ status: 'BeingBuilt', approved_at: null }]);
    expect(after.signed).toEqual([]);
    expect(after.refused).toEqual([expect.objectContaining({ attempted: 'Submit' })]);
  });
});
