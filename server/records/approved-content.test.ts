import {
  approvedSop,
  pastTheVersionLock,
  sqlState,
  startSignKit,
  type SignKit,
} from '#server/test/sign-test-kit.ts';
import { signedPdfText } from '#server/test/signed-pdf.ts';
import { onTwoRoles } from '#server/test/test-db-urls.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * Issue 28: an approved version's content cannot be changed by the app role, and any difference
 * between what was approved and what is stored (done by the owner past the lock, or by the app
 * role in the record's own row) reads as broken integrity on the record and in verify, never as
 * Approved. Run on PostgreSQL with DATABASE_OWNER_URL for the two roles; on one role (PGlite)
 * the app and the owner are the same role, and the same refusals hold by the trigger.
 */

let kit: SignKit;
beforeAll(async () => (kit = await startSignKit()));
afterAll(() => kit?.close());

const VERSION_OF = (sopId: number) =>
  `where document_type = 'SOP' and document_id = ${sopId} and version_number = 1`;

const readSop = async (sopId: number) =>
  (await kit.call('GET', `${kit.F}/sop/${sopId}`)).body as Record<string, unknown>;

const verify = async () => {
  const res = await kit.call('GET', `${kit.F}/audit_logs/verify`);
  expect(res.status).toBe(200);
  return res.body as {
    intact: boolean;
    records: { broken: { documentType: string; documentId: number; reason: string }[] };
  };
};

const brokenIn = async (sopId: number) =>
  (await verify()).records.broken.filter((r) => r.documentType === 'SOP' && r.documentId === sopId);

describe('the approved version is kept from the app role', () => {
  it('refuses every change of its content, its identity and its approval, and its deletion', async () => {
    // Nothing reads as broken before anyone tampers: the facility's defaults included.
    expect((await verify()).records.broken).toEqual([]);
    const { sopId } = await approvedSop(kit);
    const where = VERSION_OF(sopId);
    for (const sql of [
      `update controlled_versions set content = content || '{"name": "Forged"}' ${where}`,
      `update controlled_versions set title = 'Forged' ${where}`,
      `update controlled_versions set version_number = 7 ${where}`,
      `update controlled_versions set document_id = document_id + 1000 ${where}`,
      `update controlled_versions set status = 'BeingBuilt' ${where}`,
      `update controlled_versions set approved_at = now() - interval '1 day' ${where}`,
      `delete from controlled_versions ${where}`,
      `truncate controlled_versions`,
    ]) {
      expect({ sql, state: await sqlState(kit.server.db, sql) }).toEqual({ sql, state: '42501' });
    }
    if (onTwoRoles()) {
      // The app role owns nothing, so it cannot switch the lock off either.
      const off = 'alter table controlled_versions disable trigger controlled_versions_locked';
      expect(await sqlState(kit.server.db, off)).toBe('42501');
      // Nor insert a version already approved.
      expect(
        await sqlState(
          kit.server.db,
          `insert into controlled_versions (facility_id, document_type, document_id,
             version_number, status, content, title)
           values (${kit.facilityId}, 'SOP', ${sopId}, 9, 'Approved', '{}', 'Forged')`,
        ),
      ).toBe('42501');
    }
    expect(await readSop(sopId)).toMatchObject({ status: 'Approved', integrity: 'intact' });
    expect(await brokenIn(sopId)).toEqual([]);
  });

  it('still lets the app deprecate it when the next version is approved', async () => {
    const { sopId, editor, signer } = await approvedSop(kit);
    expect((await kit.editSop(sopId, editor)).status).toBe(200);
    for (const [action, as] of [
      ['Submit', editor],
      ['Approve', signer],
    ] as const)
      expect((await kit.signSop(sopId, action, as)).status).toBe(200);
    expect(await readSop(sopId)).toMatchObject({
      status: 'Approved',
      versionNumber: 2,
      integrity: 'intact',
    });
  });
});

describe('a difference between what was approved and what is stored', () => {
  it('made by the owner past the lock shows broken on the record and in verify, never Approved', async () => {
    const { sopId } = await approvedSop(kit);
    const owner = await kit.server.db.owner();
    // The owner too is refused while the lock is on.
    expect(
      await sqlState(
        owner,
        `update controlled_versions set content = content || '{"name": "x"}' ${VERSION_OF(sopId)}`,
      ),
    ).toBe('42501');
    await pastTheVersionLock(
      owner,
      `update controlled_versions set content = jsonb_set(content, '{name}', '"Changed behind the app"')
        ${VERSION_OF(sopId)}`,
    );
    const read = await readSop(sopId);
    expect(read).toMatchObject({
      status: 'IntegrityBroken',
      integrity: 'broken',
      integrityReason: 'The approved content differs from what was signed',
    });
    const list = await kit.call('GET', `${kit.F}/sop?pageLimit=100`);
    const listed = (list.body.data as { id: number; status: string }[]).find((r) => r.id === sopId);
    expect(listed?.status).toBe('IntegrityBroken');
    expect(await brokenIn(sopId)).toEqual([
      expect.objectContaining({ reason: 'The approved content differs from what was signed' }),
    ]);
    expect((await verify()).intact).toBe(false);
    const pdf = await signedPdfText(kit.server, kit.F, kit.admin.token, 'SOP', sopId);
    expect(pdf).toContain('Integrity broken');
    expect(pdf).not.toContain('Active');
  });

  it('made by the owner inserting an approved version without signatures is broken', async () => {
    const { sopId } = await approvedSop(kit);
    await pastTheVersionLock(
      await kit.server.db.owner(),
      `with old as (update controlled_versions set status = 'Deprecated', deprecated_at = now()
                    ${VERSION_OF(sopId)} returning *)
       insert into controlled_versions (facility_id, document_type, document_id, version_number,
         status, signature_state, content, title, approved_at)
       select facility_id, document_type, document_id, 2, 'Approved', 'Signed', content, title,
              now() from old`,
    );
    expect(await readSop(sopId)).toMatchObject({
      status: 'IntegrityBroken',
      versionNumber: 2,
      integrityReason: 'The version in force has no valid approval signature',
    });
    expect(await brokenIn(sopId)).toHaveLength(1);
  });

  it('made by the app role through the steps the lock allows is broken', async () => {
    const { sopId } = await approvedSop(kit);
    // Deprecate the approved version, build a forged one and put it in force: each step is one
    // the app may take, but no signature approved it.
    await kit.server.db.transaction(async (tx) => {
      await tx.query(
        `update controlled_versions set status = 'Deprecated', deprecated_at = now()
          ${VERSION_OF(sopId)}`,
      );
      await tx.query(
        `insert into controlled_versions (facility_id, document_type, document_id,
           version_number, status, content, title)
         select facility_id, document_type, document_id, 2, 'BeingBuilt',
                jsonb_set(content, '{name}', '"Forged"'), title
           from controlled_versions ${VERSION_OF(sopId)}`,
      );
      await tx.query(
        `update controlled_versions set status = 'Approved', signature_state = 'Signed',
                approved_at = now()
          where document_type = 'SOP' and document_id = $1 and version_number = 2`,
        [sopId],
      );
    });
    const read = await readSop(sopId);
    expect(read).toMatchObject({ status: 'IntegrityBroken', integrity: 'broken', name: 'Forged' });
    expect(await brokenIn(sopId)).toHaveLength(1);
  });

  it("made by the app role in the record's own row is broken", async () => {
    const { sopId } = await approvedSop(kit);
    await kit.server.db.query(`update sops set name = 'Changed in the row' where id = $1`, [sopId]);
    const read = await readSop(sopId);
    expect(read.status).toBe('IntegrityBroken');
    expect(read.integrityReason).toMatch(/differs from its approved version \(name\)/);
    expect(await brokenIn(sopId)).toHaveLength(1);
  });

  it('made by the owner to a limit policy in force is broken too', async () => {
    const [policy] = await kit.server.db.query<{ id: number }>(
      `select id from cleaning_limit_policies where facility_id = $1 order by id limit 1`,
      [kit.facilityId],
    );
    await pastTheVersionLock(
      await kit.server.db.owner(),
      `update controlled_versions set content = content || '{"safetyFactor": 1}'
        where document_type = 'CleaningLimitPolicy' and document_id = $1 and status = 'Approved'`,
      [policy!.id],
    );
    const broken = (await verify()).records.broken.filter(
      (r) => r.documentType === 'CleaningLimitPolicy' && r.documentId === policy!.id,
    );
    expect(broken).toEqual([
      expect.objectContaining({
        reason: expect.stringMatching(/differs from its approved version/),
      }),
    ]);
  });
});
