import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractChunks, contractDocument } from '#core/limits/contract-output.ts';
import type { ContractDocument } from '#core/limits/contract-output.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import { canonicalJson } from '#server/records/controlled.ts';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { adminEditor, changePolicyInForce, policyApprover } from '#server/test/policy-in-force.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';

/*
 * The limits use the approved version of each policy: a version being built, reviewed or
 * approved changes no limit (what-if previews it with policy=draft), its approval puts it in
 * force with a limits snapshot, and asOf answers with the numbers of a past moment exactly.
 */

const t = useFacilityTestServer();
let facility: MacFacility;
beforeAll(async () => {
  facility = await buildMacFacility(t.server, t.facilityId);
});

/** A request on the facility's routes: path is relative to them. */
const call = (method: string, path: string, body?: unknown, as?: string) =>
  t.call(method, `${facility.F}${path}`, body, as);
/** The MAC matrix as the server sends it, byte for byte. */
const matrixText = async (query = '') => {
  const res = await fetch(`${t.server.url}${facility.F}/mac-matrix${query}`, {
    headers: { token: t.token },
  });
  expect(res.status).toBe(200);
  return res.text();
};
const pairAB = (doc: ContractDocument) =>
  doc.pairs!.find((p) => p.previous === 'A' && p.next === 'B')!;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('a change of a cleaning limit policy', () => {
  it('moves no limit until it is approved; what-if previews it; its approval stores a snapshot', async () => {
    const before = await matrixText();
    expect(pairAB(JSON.parse(before) as ContractDocument).governing).toBe('arl');
    const current = await call('GET', '/cleaning_limit_policies/Chemical');
    const edited = await call('POST', '/cleaning_limit_policies', {
      residueType: 'Chemical',
      useARL: false,
      version: current.body.version,
      reason: 'General limit not applied to this site',
    });
    expect(edited.body).toMatchObject({ status: 'BeingBuilt', versionNumber: 2 });
    expect(await matrixText()).toBe(before);

    // What-if: the approved policy by default, the version in progress on request.
    const approvedInput = (await call('GET', '/limits/input')).body.input as LimitsInput;
    const draftInput = (await call('GET', '/limits/input?policy=draft')).body.input as LimitsInput;
    expect(approvedInput.policy.useARL).toBe(true);
    expect(draftInput.policy.useARL).toBe(false);
    // Without the general limit (1,000 mg) the dose criterion (2,500 mg) would govern.
    expect(pairAB(contractDocument(draftInput))).toMatchObject({
      governing: 'dose',
      maco: { value: 2500 },
    });

    const approver = await policyApprover(t.server, facility.F);
    const submit = await call('POST', '/signatures', {
      documentType: 'CleaningLimitPolicy',
      documentId: edited.body.id,
      action: 'Submit',
      password: adminEditor(t.token).password,
    });
    expect(submit.body.document).toMatchObject({ status: 'BeingApproved', versionNumber: 2 });
    const locked = await call('POST', '/cleaning_limit_policies', {
      residueType: 'Chemical',
      useLd50: true,
      version: edited.body.version,
      reason: 'x',
    });
    expect(locked.status).toBe(409);
    expect(locked.body.errName).toBe('TransactionLocked');
    expect(await matrixText()).toBe(before);
    expect((await call('GET', '/limits/input?policy=draft')).body.input.policy.useARL).toBe(false);

    const approve = await call(
      'POST',
      '/signatures',
      {
        documentType: 'CleaningLimitPolicy',
        documentId: edited.body.id,
        action: 'Approve',
        password: approver.password,
      },
      approver.token,
    );
    expect(approve.status).toBe(200);
    expect(approve.body.document).toMatchObject({
      id: edited.body.id,
      status: 'Approved',
      signatureState: 'Signed',
      versionNumber: 2,
      version: edited.body.version,
    });
    const after = await matrixText();
    expect(pairAB(JSON.parse(after) as ContractDocument)).toMatchObject({
      governing: 'dose',
      maco: { value: 2500 },
    });
    expect((await call('GET', '/cleaning_limit_policies/Chemical')).body).toMatchObject({
      status: 'Approved',
      versionNumber: 2,
    });

    const snapshotId = approve.body.signature.limitsSnapshotId as number;
    expect(snapshotId).toEqual(expect.any(Number));
    const [snapshot] = await t.server.db.query<Body>(
      `select facility_id, document_type, document_id, version_number, input, input_hash, output_hash
         from limits_snapshots where id = $1`,
      [snapshotId],
    );
    expect(snapshot).toMatchObject({
      facility_id: facility.facilityId,
      document_type: 'CleaningLimitPolicy',
      document_id: edited.body.id,
      version_number: 2,
    });
    const input = snapshot!.input as LimitsInput;
    expect(input.policy.useARL).toBe(false);
    expect(snapshot!.input_hash).toBe(sha256(canonicalJson(input)));
    const output = [...contractChunks(input)].join('');
    expect(snapshot!.output_hash).toBe(sha256(output));
    // The matrix in force is the snapshot's output (the live answer adds its uncomputable list).
    expect(after).toBe(output.replace(/\}\n$/, ',"uncomputable":[]}\n'));
  });

  it('of the microbial policy or the inspection settings also stores a snapshot on approval', async () => {
    for (const path of ['microbial-cleaning-limit-policies', 'cleaning-inspection-settings']) {
      const change =
        path === 'cleaning-inspection-settings'
          ? { minimumLightLux: 800, reason: 'Brighter inspection lamps' }
          : { rinseLimit: 10, reason: 'WFI rinse' };
      const res = await changePolicyInForce(
        t.server,
        facility.F,
        path,
        change,
        adminEditor(t.token),
      );
      const state = await call('GET', `/${path}`);
      expect(state.body).toMatchObject({ id: res.body.id, status: 'Approved', versionNumber: 2 });
      const documentType =
        path === 'cleaning-inspection-settings'
          ? 'CleaningInspectionSettings'
          : 'CleaningLimitPolicy';
      const signatures = await call(
        'GET',
        `/signatures?documentType=${documentType}&documentId=${res.body.id}`,
      );
      const approval = (signatures.body.signatures as Body[]).find((s) => s.action === 'Approve');
      expect(approval?.limitsSnapshotId).toEqual(expect.any(Number));
    }
  });
});

describe('asOf on the MAC matrix, its pairs and the limit reports', () => {
  it('answers with exactly the numbers the facility’s data and approved policy gave then', async () => {
    const reads = [
      '/mac-matrix/pairs?pageLimit=500',
      '/limits/equipment',
      '/limits/productions',
      `/limits/productions/${facility.line1}/pairs`,
      '/limits/worst-case-ranking',
    ];
    const matrix = await matrixText();
    const then = await Promise.all(reads.map(async (path) => (await call('GET', path)).body));
    const [{ t: moment }] = (await t.server.db.query<{ t: string }>(
      `select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as t`,
    )) as [{ t: string }];

    // The data change and a new policy is approved.
    const [a] = await t.server.db.query<{ id: number }>(
      `select id from products where facility_id = $1 and name = 'A'`,
      [facility.facilityId],
    );
    const product = await call('GET', `/products/${a!.id}`);
    const changed = await call('POST', `/products/${a!.id}`, {
      minBatchSize: { value: 5, unit: 'kg' },
      version: product.body.version,
      reason: 'Smaller batches',
    });
    expect(changed.status).toBe(200);
    await changePolicyInForce(
      t.server,
      facility.F,
      'cleaning_limit_policies',
      { residueType: 'Chemical', safetyFactor: 5000, reason: 'More margin' },
      adminEditor(t.token),
    );
    expect(await matrixText()).not.toBe(matrix);

    const at = `asOf=${encodeURIComponent(moment)}`;
    expect(await matrixText(`?${at}`)).toBe(matrix);
    for (const [i, path] of reads.entries()) {
      const joined = path.includes('?') ? `${path}&${at}` : `${path}?${at}`;
      expect((await call('GET', joined)).body).toEqual(then[i]);
    }
    const bad = await call('GET', '/limits/equipment?asOf=yesterday');
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].property).toBe('asOf');
  });
});
