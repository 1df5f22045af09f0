import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../db/db.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import { testDatabaseRoles } from '../test/test-db-urls.ts';
import { bindEarlierSignatures, signatureKey, signatureMac } from './signature-binding.ts';
import {
  approvedSop,
  sqlState,
  startSignKit,
  type Person,
  type SignKit,
} from '#server/test/sign-test-kit.ts';

/*
 * Issue 28: a signature is valid only with its entry in the audit hash chain and a MAC made with
 * the key outside the database. Rows written into `signatures` with SQL, by the app role or the
 * owner, are shown not valid everywhere: the list, the signature PDF and verify.
 */

const twoRoles = Boolean(process.env.DATABASE_URL) && Boolean(testDatabaseRoles().appRole);

let kit: SignKit;
let signer: Person;
let sopId: number;
beforeAll(async () => {
  kit = await startSignKit();
  ({ signer, sopId } = await approvedSop(kit));
});
afterAll(async () => {
  await kit?.close();
});

type Listed = { id: number; valid: boolean };
const listed = async (id = sopId): Promise<Listed[]> => {
  const res = await kit.call('GET', `${kit.F}/signatures?documentType=SOP&documentId=${id}`);
  expect(res.status).toBe(200);
  return res.body.signatures as Listed[];
};
const validityOf = async (signatureId: number) =>
  (await listed()).find((s) => s.id === signatureId)?.valid;

async function pdfText(): Promise<string> {
  const res = await fetch(
    `${kit.server.url}${kit.F}/signatures/pdf?documentType=SOP&documentId=${sopId}`,
    { headers: { token: kit.admin.token } },
  );
  expect(res.status).toBe(200);
  return (await readPdfText(new Uint8Array(await res.arrayBuffer()))).text.replace(/\s+/g, ' ');
}

type Verified = {
  intact: boolean;
  signatures: { checked: number; invalid: { id: number; problem: string }[] };
};
async function verify(): Promise<Verified> {
  const res = await kit.call(
    'GET',
    `/api/v2/plans/${kit.planId}/facilities/${kit.facilityId}/audit_logs/verify`,
  );
  expect(res.status).toBe(200);
  return res.body as Verified;
}

/**
 * A copy of the approval signature, as SQL would write it: same record, version, meaning (the
 * only one an approval may carry) and hash, under the printed name given.
 */
async function insertCopy(q: Queryable, printedName: string): Promise<number> {
  const [row] = await q.query<{ id: number }>(
    `insert into signatures (facility_id, document_type, document_id, version_number, action,
       signer_role, meaning, printed_name, user_id, content_hash)
     select facility_id, document_type, document_id, version_number, action, signer_role, meaning,
            $2, user_id, content_hash
       from signatures where document_type = 'SOP' and document_id = $1 and action = 'Approve'
     returning id`,
    [sopId, printedName],
  );
  return row!.id;
}

describe('signatures bound into the audit hash chain with a MAC', () => {
  it('a signature made through the API is valid, and its chain entry carries what it binds', async () => {
    const signatures = await listed();
    expect(signatures.map((s) => s.valid)).toEqual([true, true]);
    const [entry] = await kit.server.db.query<{ new_values: Record<string, unknown> }>(
      `select new_values from audit_log where domain = 'ElectronicSignature' and action = 'Approve'
          and new_values ->> 'signatureId' = $1`,
      [String(signatures[1]!.id)],
    );
    expect(entry!.new_values).toMatchObject({
      signatureId: signatures[1]!.id,
      userId: signer.id,
      documentType: 'SOP',
      documentId: sopId,
      versionNumber: 1,
      meaning: expect.any(String),
      signedAt: expect.any(String),
      contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      mac: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // The MAC differs from signer to signer: it is not the record's hash.
    const macs = await kit.server.db.query<{ mac: string }>(
      `select new_values ->> 'mac' as mac from audit_log where domain = 'ElectronicSignature'
          and new_values ->> 'signatureId' = any($1::text[])`,
      [signatures.map((s) => String(s.id))],
    );
    expect(new Set(macs.map((m) => m.mac)).size).toBe(2);
  });

  it('a row inserted with SQL by the app role has no chain entry: not valid in the list, the PDF and verify', async () => {
    const forged = await insertCopy(kit.server.db, 'Approved by the app role');
    expect(await validityOf(forged)).toBe(false);
    expect(await pdfText()).toContain('Not valid: not in the audit trail');
    const verified = await verify();
    expect(verified.intact).toBe(false);
    expect(verified.signatures.invalid).toContainEqual(
      expect.objectContaining({ id: forged, problem: 'no_chain_entry' }),
    );
  });

  it('a chain entry the app role writes itself has a wrong MAC: still not valid', async () => {
    const forged = await insertCopy(kit.server.db, 'Approved with a forged entry');
    await kit.server.db.query(
      `insert into audit_log (chain, seq, plan_id, facility_id, domain, action, entity_id,
         new_values, prev_hash, hash)
       values (null, 0, $1, $2, 'ElectronicSignature', 'Approve', $3, $4, '', '')`,
      [
        kit.planId,
        kit.facilityId,
        String(sopId),
        JSON.stringify({ signatureId: forged, mac: 'f'.repeat(64) }),
      ],
    );
    expect(await validityOf(forged)).toBe(false);
    expect((await verify()).signatures.invalid).toContainEqual(
      expect.objectContaining({ id: forged, problem: 'mac' }),
    );
  });

  it('a row inserted by the owner is not valid either', async () => {
    const forged = await insertCopy(await kit.server.db.owner(), 'Approved by the owner');
    expect(await validityOf(forged)).toBe(false);
  });

  it('a signature the owner changes (its trigger switched off) no longer matches its MAC', async () => {
    const owner = await kit.server.db.owner();
    const [approval] = (await listed()).filter((s) => s.valid).slice(-1);
    expect(
      await sqlState(owner, `update signatures set meaning = 'x' where id = ${approval!.id}`),
    ).toBe('42501');
    await owner.exec(`
      begin;
      alter table signatures disable trigger signatures_no_update;
      update signatures set printed_name = 'Someone Else' where id = ${approval!.id};
      alter table signatures enable trigger signatures_no_update;
      commit;`);
    expect(await validityOf(approval!.id)).toBe(false);
    expect((await verify()).signatures.invalid).toContainEqual(
      expect.objectContaining({ id: approval!.id, problem: 'mac' }),
    );
    expect(await pdfText()).toContain('Not valid: its MAC does not match');
  });

  it('a row written with SQL does not count toward the approval steps', async () => {
    const editor = await kit.person({ edit: true });
    const id = (await kit.createSop(editor)).id as number;
    expect((await kit.signSop(id, 'Submit', editor)).status).toBe(200);
    // The signer's approval, as SQL would write it: were it counted, the signer would be
    // refused as having signed already, and the record would be one signature short.
    await kit.server.db.query(
      `insert into signatures (facility_id, document_type, document_id, version_number, action,
         signer_role, meaning, printed_name, user_id, content_hash)
       select facility_id, document_type, document_id, version_number, 'Approve', 'Approver',
              'Approved', 'Forged', $2, content_hash
         from signatures where document_type = 'SOP' and document_id = $1 and action = 'Submit'`,
      [id, signer.id],
    );
    const approved = await kit.signSop(id, 'Approve', signer);
    expect(approved.status).toBe(200);
    expect(approved.body.document.status).toBe('Approved');
  });

  it('the app role may only insert into signatures', async () => {
    for (const sql of ['update signatures set meaning = meaning', 'delete from signatures']) {
      expect({ sql, state: await sqlState(kit.server.db, sql) }).toEqual({ sql, state: '42501' });
    }
    if (twoRoles) {
      expect(
        await sqlState(
          kit.server.db,
          'alter table signatures disable trigger signatures_no_update',
        ),
      ).toBe('42501');
    }
  });
});

describe('signatures made before MACs existed', () => {
  it('are bound once, at start, and a signature added to the list later never is', async () => {
    const owner = await kit.server.db.owner();
    const earlier = await insertCopy(owner, 'Approved before MACs');
    const later = await insertCopy(owner, 'Slipped in afterwards');
    const listOnly = (ids: number[]) =>
      owner.exec(`create or replace function signatures_before_mac() returns integer[]
        language sql immutable as $$ select '{${ids.join(',')}}'::integer[] $$`);
    await listOnly([earlier]);
    const config = kit.server.config;
    expect(await bindEarlierSignatures(kit.server.db, config, () => undefined)).toBe(1);
    expect(await validityOf(earlier)).toBe(true);
    const [entry] = await kit.server.db.query<{ user_name: string; mac: string }>(
      `select user_name, new_values ->> 'mac' as mac from audit_log
        where action = 'Bind' and new_values ->> 'signatureId' = $1`,
      [String(earlier)],
    );
    const [row] = await kit.server.db.query<Parameters<typeof signatureMac>[1]>(
      'select * from signatures where id = $1',
      [earlier],
    );
    const key = await signatureKey(config, () => undefined);
    expect(entry).toEqual({
      user_name: 'system (signature binding)',
      mac: signatureMac(key, row!),
    });

    await listOnly([earlier, later]);
    expect(await bindEarlierSignatures(kit.server.db, config, () => undefined)).toBe(0);
    expect(await validityOf(later)).toBe(false);
  });
});
