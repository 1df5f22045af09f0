import { pastTheVersionLock, startSignKit, type SignKit } from '#server/test/sign-test-kit.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * Issue 28: a plain read of a limit policy or of the inspection settings carries the integrity
 * of its version in force, as a controlled entity's read does: content changed behind the app
 * (by the owner past the version lock, or by the app role in the record's own row) reads as
 * 'IntegrityBroken' with the reason, never as Approved. On PostgreSQL with DATABASE_OWNER_URL
 * the owner and the app are two roles; on PGlite one.
 */

let kit: SignKit;
beforeAll(async () => (kit = await startSignKit()));
afterAll(() => kit?.close());

const recordOf = async (table: string, where: string) => {
  const [row] = await kit.server.db.query<{ id: number }>(
    `select id from ${table} where facility_id = $1 and ${where}`,
    [kit.facilityId],
  );
  return row!.id;
};

/** The owner rewrites the approved content of a record's version in force. */
const rewriteApproved = async (documentType: string, id: number, patch: object) =>
  pastTheVersionLock(
    await kit.server.db.owner(),
    `update controlled_versions set content = content || $2::jsonb
      where document_type = $3 and document_id = $1 and status = 'Approved'`,
    [id, JSON.stringify(patch), documentType],
  );

const read = async (path: string) => {
  const res = await kit.call('GET', `${kit.F}/${path}`);
  expect(res.status).toBe(200);
  return res.body;
};

describe('the reads of limit policies and inspection settings', () => {
  it('say intact and Approved while nothing was changed behind the app', async () => {
    const chemical = await read('cleaning_limit_policies/Chemical');
    expect(chemical).toMatchObject({ status: 'Approved', integrity: 'intact' });
    expect((await read('microbial-cleaning-limit-policies')).integrity).toBe('intact');
    expect((await read('cleaning-inspection-settings')).integrity).toBe('intact');
  });

  it('show a policy whose approved content the owner changed as broken, on every read', async () => {
    const id = await recordOf('cleaning_limit_policies', `residue_type = 'Detergent'`);
    await rewriteApproved('CleaningLimitPolicy', id, { safetyFactor: 7 });
    const broken = {
      status: 'IntegrityBroken',
      integrity: 'broken',
      integrityReason: expect.stringMatching(/differs from its approved version \(safetyFactor\)/),
    };
    expect(await read(`cleaning_limit_policies/${id}`)).toMatchObject(broken);
    expect(await read('cleaning_limit_policies/Detergent?version=draft')).toMatchObject(broken);
    const list = (await read('cleaning_limit_policies')).policies as { id: number }[];
    expect(list.find((p) => p.id === id)).toMatchObject(broken);
    // The others are untouched.
    expect(list.find((p) => p.id !== id)).toMatchObject({ integrity: 'intact' });
    const asOf = new Date().toISOString();
    expect(await read(`cleaning_limit_policies/${id}?asOf=${asOf}`)).toMatchObject(broken);
  });

  it('show the microbial policy changed by the app role in its own row as broken', async () => {
    const id = await recordOf('cleaning_limit_policies', `residue_type = 'Microbial'`);
    await kit.server.db.query(
      `update cleaning_limit_policies set policy = policy || '{"endotoxinLimit": 99}' where id = $1`,
      [id],
    );
    expect(await read('microbial-cleaning-limit-policies')).toMatchObject({
      status: 'IntegrityBroken',
      integrity: 'broken',
      integrityReason: expect.stringMatching(/changed outside the application/),
    });
  });

  it('show inspection settings whose approved content the owner changed as broken', async () => {
    const id = await recordOf('facility_rules', `kind = 'InspectionSettings'`);
    await rewriteApproved('CleaningInspectionSettings', id, { minimumLightLux: 1 });
    expect(await read('cleaning-inspection-settings')).toMatchObject({
      status: 'IntegrityBroken',
      integrity: 'broken',
      integrityReason: expect.stringMatching(/minimumLightLux/),
    });
  });
});
