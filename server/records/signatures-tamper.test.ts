import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onTwoRoles } from '../test/test-db-urls.ts';
import { contentHash } from './controlled.ts';
import {
  approvedSop,
  pastTheVersionLock,
  sqlState,
  startSignKit,
  type SignKit,
} from '#server/test/sign-test-kit.ts';

/*
 * ES-3: a changed record no longer verifies against its signature, a signature cannot be moved
 * to another record, and the database refuses to change or remove one.
 */

const twoRoles = onTwoRoles();

let kit: SignKit;
let sopId: number;
beforeAll(async () => {
  kit = await startSignKit();
  ({ sopId } = await approvedSop(kit));
});
afterAll(async () => {
  await kit?.close();
});

const validity = async () => {
  const res = await kit.call('GET', `${kit.F}/signatures?documentType=SOP&documentId=${sopId}`);
  return res.body.signatures.map((s: { valid: boolean }) => s.valid) as boolean[];
};

describe('ES-3: signatures bound to what was signed', () => {
  it('a change of the stored version, even by the owner in the database, makes them invalid', async () => {
    expect(await validity()).toEqual([true, true]);
    const owner = await kit.server.db.owner();
    await pastTheVersionLock(
      owner,
      `update controlled_versions set content = jsonb_set(content, '{name}', '"Changed behind the app"')
        where document_type = 'SOP' and document_id = $1 and version_number = 1`,
      [sopId],
    );
    expect(await validity()).toEqual([false, false]);
  });

  it('a signature cannot be moved to another record: the hash names the record', async () => {
    const [row] = await kit.server.db.query<{ content: unknown; content_hash: string }>(
      `select v.content, s.content_hash from signatures s join controlled_versions v
          on v.document_type = s.document_type and v.document_id = s.document_id
         and v.version_number = s.version_number
        where s.document_type = 'SOP' and s.document_id = $1 limit 1`,
      [sopId],
    );
    const ref = { facilityId: kit.facilityId, documentType: 'SOP' as const };
    const moved = contentHash({ ...ref, documentId: sopId + 1 }, 1, row!.content);
    expect(moved).not.toBe(contentHash({ ...ref, documentId: sopId }, 1, row!.content));
    const owner = await kit.server.db.owner();
    expect(
      await sqlState(
        owner,
        `update signatures set document_id = document_id + 1 where document_id = ${sopId}`,
      ),
    ).toBe('42501');
  });

  it('the app role can neither update nor delete a signature, nor a limits snapshot', async () => {
    await kit.server.db.query(
      `insert into limits_snapshots (facility_id, document_type, document_id, version_number,
         input, input_hash, output_hash) values ($1, 'CleaningLimitPolicy', 1, 1, '{}', 'i', 'o')`,
      [kit.facilityId],
    );
    for (const sql of [
      `update signatures set printed_name = 'Someone else'`,
      `delete from signatures`,
      `update limits_snapshots set output_hash = 'x'`,
      `delete from limits_snapshots`,
    ]) {
      expect({ sql, state: await sqlState(kit.server.db, sql) }).toEqual({ sql, state: '42501' });
    }
    // The logbook's release entries point at their signatures: a plain TRUNCATE is refused for
    // that foreign key before any trigger runs, and with CASCADE the trigger refuses it.
    expect(['42501', '0A000']).toContain(await sqlState(kit.server.db, `truncate signatures`));
    expect(await sqlState(kit.server.db, `truncate signatures cascade`)).toBe('42501');
    if (twoRoles) {
      // Privileges, not only the trigger: the app role has INSERT and SELECT on them only.
      const [grants] = await kit.server.db.query<{
        update: boolean;
        delete: boolean;
        insert: boolean;
      }>(
        `select has_table_privilege('signatures', 'UPDATE') as update,
                has_table_privilege('signatures', 'DELETE') as delete,
                has_table_privilege('signatures', 'INSERT') as insert`,
      );
      expect(grants).toEqual({ update: false, delete: false, insert: true });
    }
    const [count] = await kit.server.db.query<{ n: number }>(
      `select count(*)::int as n from signatures where document_id = $1 and document_type = 'SOP'`,
      [sopId],
    );
    expect(count!.n).toBe(2);
  });

  it('the owner is refused by the trigger, as on the audit trail', async () => {
    const owner = await kit.server.db.owner();
    expect(await sqlState(owner, `update signatures set meaning = 'Approved by nobody'`)).toBe(
      '42501',
    );
    expect(await sqlState(owner, `delete from signatures`)).toBe('42501');
  });
});
