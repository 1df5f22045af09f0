// ES-2 and ES-6: re-entered passwords, and who may sign what and when.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNATURE_MEANINGS } from '#core/schemas/signatures.schemas.ts';
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

describe('ES-2: the signer re-enters their password', () => {
  it('a wrong one is 422 on password, counts toward the lockout, and the session stays', async () => {
    const sop = await kit.createSop(editor);
    const victim = await kit.person({ edit: true });
    const wrong = await kit.signSop(sop.id, 'Submit', victim, { password: 'Not-my-password1' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ errName: 'DataValidationError' });
    expect(wrong.body.errors[0].property).toBe('password');
    const [counted] = await kit.server.db.query<{ failed_attempts: number }>(
      'select failed_attempts from users where id = $1',
      [victim.id],
    );
    expect(counted!.failed_attempts).toBe(1);
    expect(await lastAudit('Authentication', 'SignatureFailed')).toMatchObject({
      user_id: victim.id,
    });
    expect((await kit.call('GET', `${kit.F}/sop/${sop.id}`, undefined, victim)).status).toBe(200);
    for (let i = 2; i <= 5; i += 1)
      expect(
        (await kit.signSop(sop.id, 'Submit', victim, { password: `Wrong#${i}x` })).status,
      ).toBe(422);
    const [locked] = await kit.server.db.query<{ locked: boolean }>(
      'select locked_until > now() as locked from users where id = $1',
      [victim.id],
    );
    expect(locked!.locked).toBe(true);
    expect(await lastAudit('Authentication', 'Lock')).toMatchObject({ user_id: victim.id });
    // Locked: even the right password signs nothing, and the sign-in is refused too.
    const right = await kit.signSop(sop.id, 'Submit', victim);
    expect(right.status).toBe(422);
    const [version] = await kit.server.db.query<{ status: string }>(
      `select status from controlled_versions where document_type = 'SOP' and document_id = $1`,
      [sop.id],
    );
    expect(version!.status).toBe('BeingBuilt');
  });
});

describe('parallel signatures with the right password', () => {
  it('are all accepted: a right password never counts toward the lockout', async () => {
    const sops = [];
    for (let i = 0; i < 30; i += 1) sops.push(await kit.createSop(editor));
    const signed = await Promise.all(sops.map((sop) => kit.signSop(sop.id, 'Submit', editor)));
    const refused = signed.filter((res) => res.status !== 200);
    console.log(`30 parallel signatures with the right password: ${refused.length} refused`);
    expect(refused.map((res) => res.body)).toEqual([]);
    const [row] = await kit.server.db.query<{ failed_attempts: number; locked: boolean }>(
      `select failed_attempts, coalesce(locked_until > now(), false) as locked
         from users where id = $1`,
      [editor.id],
    );
    expect(row).toEqual({ failed_attempts: 0, locked: false });
  });
});

describe('signature meanings', () => {
  it('are fixed per action: the database refuses any other, even from SQL', async () => {
    const insert = (action: string, meaning: string) =>
      kit.server.db
        .transaction(async (tx) => {
          await tx.query(
            `insert into signatures (facility_id, document_type, document_id, version_number,
               action, signer_role, meaning, printed_name, user_id, content_hash)
             values ($1, 'SOP', 0, 1, $2, 'Approver', $3, 'Test', $4, 'hash')`,
            [kit.facilityId, action, meaning, editor.id],
          );
          throw new Error('rolled back');
        })
        .catch((error: Error) => error.message);
    for (const [action, meanings] of Object.entries(SIGNATURE_MEANINGS)) {
      for (const meaning of meanings) expect(await insert(action, meaning)).toBe('rolled back');
    }
    expect(await insert('Approve', 'Approved for use')).toMatch(/signatures_meaning_fixed/);
    expect(await insert('Review', 'Approved')).toMatch(/signatures_meaning_fixed/);
  });
});

describe('ES-6: who may sign what, and when', () => {
  it('no self-approval unless the policy allows it', async () => {
    const both = await kit.person({ edit: true, sign: true });
    const sop = await kit.createSop(both);
    await kit.signSop(sop.id, 'Submit', both);
    const self = await kit.signSop(sop.id, 'Approve', both);
    expect(self.status).toBe(403);
    expect(self.body.errName).toBe('NotAllowed');
    expect(await lastAudit('ElectronicSignature', 'SignatureRefused')).toMatchObject({
      user_id: both.id,
      new_values: { attempted: 'Approve', refusal: 'NotAllowed' },
    });
    const pending = await kit.call('GET', `${kit.F}/signatures/pending`, undefined, both);
    expect(pending.body.items.map((i: { documentId: number }) => i.documentId)).not.toContain(
      sop.id,
    );
    // The record's screen reads the same rule: no Approve offered to the submitter, and why.
    const eligibility = (as: Person, id = sop.id as number) =>
      kit.call(
        'GET',
        `${kit.F}/signatures/eligibility?documentType=SOP&documentId=${id}`,
        undefined,
        as,
      );
    expect((await eligibility(both)).body).toEqual({
      versionNumber: 1,
      action: null,
      reason: `You may not sign this version: ${'you signed another step of this version, and the approval policy does not allow self-approval'}`,
    });
    expect(self.body.message).toBe((await eligibility(both)).body.reason);
    expect((await eligibility(signer)).body).toEqual({
      versionNumber: 1,
      action: 'Approve',
      reason: null,
    });
    expect((await eligibility(editor)).body.reason).toBe(
      'You may not sign this version: signing needs the right to approve records in this facility',
    );
    const draft = await kit.createSop(editor);
    expect((await eligibility(signer, draft.id)).body).toEqual({
      versionNumber: 1,
      action: null,
      reason: null,
    });
    expect(
      (
        await kit.call(
          'GET',
          `${kit.F}/signatures/eligibility?documentType=SOP&documentId=999999`,
          undefined,
          signer,
        )
      ).status,
    ).toBe(404);
    await kit.call('POST', `${kit.F}/approval_policies`, {
      documentType: 'SOP',
      steps: [{ order: 1, signerRole: 'Approver', roleIds: [], minSignatures: 1 }],
      allowSelfApproval: true,
      reason: 'Small site',
      version: (await kit.call('GET', `${kit.F}/approval_policies?documentType=SOP`)).body
        .approvalPolicy.version,
    });
    const sop2 = await kit.createSop(both);
    await kit.signSop(sop2.id, 'Submit', both);
    expect((await kit.signSop(sop2.id, 'Approve', both)).status).toBe(200);
    // The first one was submitted under the old policy: still refused.
    expect((await kit.signSop(sop.id, 'Approve', both)).status).toBe(403);
  });

  it('no signature without ApprovalPolicy Sign in that facility, nor Submit without the edit right', async () => {
    const sop = await kit.createSop(editor);
    const outsider = await kit.person({ edit: true });
    expect((await kit.signSop(sop.id, 'Submit', signer)).status).toBe(403);
    await kit.signSop(sop.id, 'Submit', editor);
    const refused = await kit.signSop(sop.id, 'Approve', outsider);
    expect(refused.status).toBe(403);
    expect(refused.body.errName).toBe('NotAllowed');
    const [other] = await kit.server.db.query<{ id: number; plan_id: number }>(
      'select id, plan_id from facilities where id <> $1 order by id limit 1',
      [kit.facilityId],
    );
    const elsewhere = await kit.call(
      'POST',
      `/api/v2/plans/${other!.plan_id}/facilities/${other!.id}/signatures`,
      { documentType: 'SOP', documentId: sop.id, action: 'Approve', password: signer.password },
      signer,
    );
    expect(elsewhere.status).toBe(403);
    expect(await lastAudit('ElectronicSignature', 'SignatureRefused')).toMatchObject({
      user_id: signer.id,
      new_values: { attempted: 'Approve', refusal: 'NotAllowed', facility: other!.id },
    });
    const signatures = await kit.server.db.query(
      'select id from signatures where document_id = $1 and document_type = $2',
      [sop.id, 'SOP'],
    );
    expect(signatures).toHaveLength(1);
  });

  it('a step that names roles is signed only by holders of one of them', async () => {
    const qa = await kit.person({ sign: true });
    const [role] = await kit.server.db.query<{ id: number }>(
      `select role_id as id from user_facility_roles where user_id = $1`,
      [qa.id],
    );
    const current = await kit.call('GET', `${kit.F}/approval_policies?documentType=SOP`);
    const set = await kit.call('POST', `${kit.F}/approval_policies`, {
      documentType: 'SOP',
      steps: [{ order: 1, signerRole: 'Approver', roleIds: [role!.id], minSignatures: 1 }],
      allowSelfApproval: false,
      reason: 'QA approves SOPs',
      version: current.body.approvalPolicy.version,
    });
    expect(set.status).toBe(200);
    const sop = await kit.createSop(editor);
    await kit.signSop(sop.id, 'Submit', editor);
    const other = await kit.signSop(sop.id, 'Approve', signer);
    expect(other.status).toBe(403);
    const mine = await kit.call('GET', `${kit.F}/signatures/pending`, undefined, qa);
    expect(mine.body.items.map((i: { documentId: number }) => i.documentId)).toContain(sop.id);
    const theirs = await kit.call('GET', `${kit.F}/signatures/pending`, undefined, signer);
    expect(theirs.body.items.map((i: { documentId: number }) => i.documentId)).not.toContain(
      sop.id,
    );
    expect((await kit.signSop(sop.id, 'Approve', qa)).status).toBe(200);
    await kit.call('POST', `${kit.F}/approval_policies`, {
      documentType: 'SOP',
      steps: [{ order: 1, signerRole: 'Approver', roleIds: [], minSignatures: 1 }],
      allowSelfApproval: false,
      reason: 'Back to the default',
      version: set.body.approvalPolicy.version,
    });
  });

  it('no action outside the allowed status', async () => {
    const sop = await kit.createSop(editor);
    const early = await kit.signSop(sop.id, 'Approve', signer);
    expect(early.status).toBe(409);
    expect(early.body.errName).toBe('TransactionLocked');
    expect((await kit.signSop(sop.id, 'Reject', signer)).status).toBe(409);
    await kit.signSop(sop.id, 'Submit', editor);
    expect((await kit.signSop(sop.id, 'Submit', editor)).status).toBe(409);
    expect((await kit.signSop(sop.id, 'Review', signer)).status).toBe(409);
    await kit.signSop(sop.id, 'Approve', signer);
    expect((await kit.signSop(sop.id, 'Approve', signer2)).status).toBe(409);
    expect(await lastAudit('ElectronicSignature', 'SignatureRefused')).toMatchObject({
      new_values: { attempted: 'Approve', refusal: 'TransactionLocked' },
    });
    // An archived record is signed only once restored.
    const archived = await kit.createSop(editor);
    const put = await kit.call('PUT', `${kit.F}/sop/${archived.id}/archive`, {
      reason: 'Obsolete',
    });
    expect(put.status).toBe(200);
    expect((await kit.signSop(archived.id, 'Submit', editor)).status).toBe(409);
  });
});
