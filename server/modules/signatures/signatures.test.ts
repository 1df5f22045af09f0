import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ZApprovalPolicyResponse,
  ZPendingApprovalsResponse,
  ZSignResponse,
  ZSignaturesResponse,
} from '#core/schemas/signatures.schemas.ts';
import { fullPermissionMap, permissionsWith } from '#server/test/factories.ts';
import { startSignTeam, type Person, type SignKit } from '#server/test/sign-test-kit.ts';

let kit: SignKit;
let editor: Person;
let signer: Person;
let signer2: Person;
beforeAll(async () => {
  ({ kit, editor, signer, signer2 } = await startSignTeam());
});
afterAll(async () => {
  await kit?.close();
});

const lastAudit = (domain: string, action?: string) => kit.lastAudit(domain, action);

describe('approval policies (contract)', () => {
  it('default to one Approver step, one signature, no self-approval', async () => {
    const res = await kit.call('GET', `${kit.F}/approval_policies?documentType=Protocol`);
    expect(res.status).toBe(200);
    expect(ZApprovalPolicyResponse.parse(res.body)).toEqual({
      approvalPolicy: {
        documentType: 'Protocol',
        steps: [{ order: 1, signerRole: 'Approver', roleIds: [], minSignatures: 1 }],
        allowSelfApproval: false,
        version: 0,
      },
    });
    const missing = await kit.call('GET', `${kit.F}/approval_policies`);
    expect(missing.status).toBe(422);
    const old = await kit.call('GET', `${kit.F}/approval_policies?documentType=Study%20report`);
    expect(old.status).toBe(422);
  });

  it('name only roles of the facility that grant ApprovalPolicy Sign, by property path', async () => {
    const db = kit.server.db;
    const [qa] = await db.query<{ id: number }>(
      `insert into roles (facility_id, name, permissions) values ($1, 'QA signer', $2) returning id`,
      [kit.facilityId, JSON.stringify(fullPermissionMap())],
    );
    const [viewer] = await db.query<{ id: number }>(
      `insert into roles (facility_id, name, permissions) values ($1, 'SOP viewer', $2) returning id`,
      [kit.facilityId, JSON.stringify(permissionsWith({ CleaningProcedure: ['Get'] }))],
    );
    const body = (steps: unknown[]) => ({
      documentType: 'ChangeAssessment',
      steps,
      allowSelfApproval: false,
      reason: 'QA reviews first',
      version: 0,
    });
    const refused = await kit.call(
      'POST',
      `${kit.F}/approval_policies`,
      body([
        { order: 1, signerRole: 'Reviewer', roleIds: [], minSignatures: 1 },
        { order: 2, signerRole: 'Approver', roleIds: [qa!.id, viewer!.id, 4242], minSignatures: 1 },
      ]),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        property: 'steps[1].roleIds[1]',
        constraints: { sign: expect.stringContaining('SOP viewer') },
      },
      { property: 'steps[1].roleIds[2]', constraints: { reference: expect.any(String) } },
    ]);
    const steps = [
      { order: 1, signerRole: 'Reviewer', roleIds: [], minSignatures: 1 },
      { order: 2, signerRole: 'Approver', roleIds: [qa!.id], minSignatures: 2 },
    ];
    const ok = await kit.call('POST', `${kit.F}/approval_policies`, body(steps));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      approvalPolicy: {
        documentType: 'ChangeAssessment',
        steps,
        allowSelfApproval: false,
        version: 1,
      },
    });
    expect(await lastAudit('ApprovalPolicy')).toMatchObject({
      reason: 'QA reviews first',
      new_values: { documentType: 'ChangeAssessment', steps },
    });
    const stale = await kit.call('POST', `${kit.F}/approval_policies`, body(steps.slice(1)));
    expect(stale.status).toBe(409);
    const noRight = await kit.call(
      'POST',
      `${kit.F}/approval_policies`,
      { ...body(steps), version: 1 },
      signer,
    );
    expect(noRight.status).toBe(403);
  });
});

describe('signing an SOP (contract, ES-1)', () => {
  it('submits, approves, and every read carries the status; signatures show name, UTC time and meaning', async () => {
    const sop = await kit.createSop(editor);
    expect(sop).toMatchObject({ status: 'BeingBuilt', signatureState: null, versionNumber: 1 });
    const submitted = await kit.signSop(sop.id, 'Submit', editor);
    expect(submitted.status).toBe(200);
    expect(ZSignResponse.parse(submitted.body).document).toEqual({
      id: sop.id,
      status: 'BeingApproved',
      signatureState: 'PendingApproval',
      versionNumber: 1,
      version: sop.version,
    });
    expect(submitted.body.signature).toMatchObject({
      action: 'Submit',
      signerRole: 'Submitter',
      meaning: 'Submitted for review',
      printedName: editor.name,
      userId: editor.id,
      valid: true,
    });
    const pending = await kit.call('GET', `${kit.F}/signatures/pending`, undefined, signer);
    expect(ZPendingApprovalsResponse.parse(pending.body).items).toContainEqual(
      expect.objectContaining({
        documentType: 'SOP',
        documentId: sop.id,
        action: 'Approve',
        submittedBy: editor.name,
      }),
    );
    const [before] = await kit.server.db.query<{ now: Date }>('select now() as now');
    // A meaning of the signer's own is refused: each action has its fixed one (21 CFR 11.50).
    const free = await kit.signSop(sop.id, 'Approve', signer, { meaning: 'Approved for use' });
    expect(free.status).toBe(422);
    expect(free.body.errors[0]).toMatchObject({
      property: 'meaning',
      constraints: { custom: "A Approve signature of this record means 'Approved'" },
    });
    const approved = await kit.signSop(sop.id, 'Approve', signer, { meaning: 'Approved' });
    expect(approved.status).toBe(200);
    expect(approved.body.document).toMatchObject({ status: 'Approved', signatureState: 'Signed' });
    const signedAt = approved.body.signature.signedAt as string;
    expect(signedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Math.abs(Date.parse(signedAt) - before!.now.getTime())).toBeLessThan(60_000);
    const read = await kit.call('GET', `${kit.F}/sop/${sop.id}`);
    expect(read.body).toMatchObject({
      status: 'Approved',
      signatureState: 'Signed',
      versionNumber: 1,
    });
    const list = await kit.call('GET', `${kit.F}/signatures?documentType=SOP&documentId=${sop.id}`);
    expect(list.status).toBe(200);
    const signatures = ZSignaturesResponse.parse(list.body).signatures;
    expect(signatures.map((s) => [s.action, s.printedName, s.meaning, s.valid])).toEqual([
      ['Submit', editor.name, 'Submitted for review', true],
      ['Approve', signer.name, 'Approved', true],
    ]);
    expect(signatures[1]!.signedAt).toBe(signedAt);
    expect(signatures[0]!.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await lastAudit('ElectronicSignature', 'Approve')).toMatchObject({
      user_id: signer.id,
      new_values: {
        documentType: 'SOP',
        documentId: sop.id,
        meaning: 'Approved',
        status: 'Approved',
      },
    });
    // The printed name is the name at signing: a later rename does not change it.
    await kit.server.db.query(`update users set first_name = 'Renamed' where id = $1`, [signer.id]);
    const again = await kit.call(
      'GET',
      `${kit.F}/signatures?documentType=SOP&documentId=${sop.id}`,
    );
    expect(again.body.signatures[1].printedName).toBe(signer.name);
  });

  it('an edit of an Approved record starts version 2, and its approval deprecates version 1', async () => {
    const sop = await kit.createSop(editor);
    await kit.signSop(sop.id, 'Submit', editor);
    await kit.signSop(sop.id, 'Approve', signer);
    const edited = await kit.editSop(sop.id, editor);
    expect(edited.status).toBe(200);
    expect(edited.body.result).toMatchObject({ status: 'BeingBuilt', versionNumber: 2 });
    await kit.signSop(sop.id, 'Submit', editor);
    const locked = await kit.editSop(sop.id, editor);
    expect(locked.status).toBe(409);
    expect(locked.body.errName).toBe('TransactionLocked');
    expect(await lastAudit('ElectronicSignature', 'SignatureRefused')).toMatchObject({
      new_values: { attempted: 'Edit', refusal: 'TransactionLocked', documentId: sop.id },
    });
    const approved = await kit.signSop(sop.id, 'Approve', signer2);
    expect(approved.body.document).toMatchObject({ status: 'Approved', versionNumber: 2 });
    const versions = await kit.server.db.query<{ version_number: number; status: string }>(
      `select version_number, status from controlled_versions
        where document_type = 'SOP' and document_id = $1 order by version_number`,
      [sop.id],
    );
    expect(versions).toEqual([
      { version_number: 1, status: 'Deprecated' },
      { version_number: 2, status: 'Approved' },
    ]);
  });

  it('a Reject needs a reason and returns the version to Being Built with Changes Requested', async () => {
    const sop = await kit.createSop(editor);
    await kit.signSop(sop.id, 'Submit', editor);
    const noReason = await kit.call(
      'POST',
      `${kit.F}/signatures`,
      {
        documentType: 'SOP',
        documentId: sop.id,
        action: 'Reject',
        password: signer.password,
      },
      signer,
    );
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors[0].property).toBe('reason');
    const rejected = await kit.signSop(sop.id, 'Reject', signer);
    expect(rejected.status).toBe(200);
    expect(rejected.body.document).toMatchObject({
      status: 'BeingBuilt',
      signatureState: 'ChangesRequested',
    });
    expect(rejected.body.signature).toMatchObject({
      action: 'Reject',
      signerRole: 'Approver',
      meaning: 'Rejected',
      reason: 'Needs changes',
    });
    expect((await kit.editSop(sop.id, editor)).status).toBe(200);
  });

  it('a policy with a Reviewer step goes through BeingReviewed; the steps are those at Submit', async () => {
    const current = await kit.call('GET', `${kit.F}/approval_policies?documentType=SOP`);
    const sop = await kit.createSop(editor);
    const set = await kit.call('POST', `${kit.F}/approval_policies`, {
      documentType: 'SOP',
      steps: [
        { order: 1, signerRole: 'Reviewer', roleIds: [], minSignatures: 1 },
        { order: 2, signerRole: 'Approver', roleIds: [], minSignatures: 1 },
      ],
      allowSelfApproval: false,
      reason: 'Review SOPs',
      version: current.body.approvalPolicy.version,
    });
    expect(set.status).toBe(200);
    const submitted = await kit.signSop(sop.id, 'Submit', editor);
    expect(submitted.body.document.status).toBe('BeingReviewed');
    expect((await kit.signSop(sop.id, 'Approve', signer)).status).toBe(409);
    const reviewed = await kit.signSop(sop.id, 'Review', signer);
    expect(reviewed.body).toMatchObject({
      signature: { signerRole: 'Reviewer', meaning: 'Reviewed' },
      document: { status: 'BeingApproved' },
    });
    // Back to one step: the submitted version keeps its two.
    await kit.call('POST', `${kit.F}/approval_policies`, {
      documentType: 'SOP',
      steps: [{ order: 1, signerRole: 'Approver', roleIds: [], minSignatures: 1 }],
      allowSelfApproval: false,
      reason: 'One step',
      version: set.body.approvalPolicy.version,
    });
    const approved = await kit.signSop(sop.id, 'Approve', signer2);
    expect(approved.body.document.status).toBe('Approved');
  });
});

// GET …/{id}/versions of a controlled record: each kept change names its controlled version.
describe('the versions of a controlled record', () => {
  it('give each change the versionNumber and status of the controlled version it belongs to', async () => {
    const sop = await kit.createSop(editor);
    expect((await kit.editSop(sop.id, editor)).status).toBe(200);
    expect((await kit.signSop(sop.id, 'Submit', editor)).status).toBe(200);
    expect((await kit.signSop(sop.id, 'Approve', signer)).status).toBe(200);
    // An edit of the approved version starts version 2.
    expect((await kit.editSop(sop.id, editor)).status).toBe(200);

    const res = await kit.call('GET', `${kit.F}/sop/${sop.id}/versions`);
    expect(res.status).toBe(200);
    const versions = res.body.versions as Array<Record<string, unknown>>;
    expect(versions.map((v) => [v.version, v.versionNumber, v.status, v.signatureState])).toEqual([
      [1, 1, 'Approved', 'Signed'],
      [2, 1, 'Approved', 'Signed'],
      [3, 2, 'BeingBuilt', null],
    ]);
  });
});
