import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.ts';
import { writeAudit } from '../db/audit-write.ts';
import { bindEarlierApprovals } from './approval-binding.ts';
import { approvalMac, approveByRecord, contentHash, type ControlledRef } from './controlled.ts';
import { signatureKey } from './signature-binding.ts';
import { startSignKit, type SignKit } from '#server/test/sign-test-kit.ts';

/*
 * Issue 28: a version put in force by another record's signatures (a policy edit applied by an
 * approved change assessment) rests on its `ApprovedByRecord` audit entry, so that entry carries
 * a MAC under the key outside the database, as a signature's chain entry does. An entry written
 * with SQL, by the app role (which may insert audit rows) or the owner, does not put a version
 * in force: the record reads as broken integrity, never as Approved. On PostgreSQL with
 * DATABASE_OWNER_URL the owner and the app are two roles; on PGlite one.
 */

let kit: SignKit;
let key: Buffer;
beforeAll(async () => {
  kit = await startSignKit();
  key = await signatureKey(kit.server.config, () => undefined);
});
afterAll(() => kit?.close());

const BY = { documentType: 'ChangeAssessment' as const, documentId: 9001, label: 'CA-9001' };
const SYSTEM = { userId: null, userName: 'test', ip: null, userAgent: null, requestId: null };

/** A policy's ref and a new version being built of it, edited over HTTP as a user would. */
async function policyWithDraft(residueType: string, patch: Record<string, unknown>) {
  const before = await kit.call('GET', `${kit.F}/cleaning_limit_policies/${residueType}`);
  const edited = await kit.call('POST', `${kit.F}/cleaning_limit_policies`, {
    residueType,
    ...patch,
    reason: 'Test edit',
    version: before.body.version,
  });
  expect(edited.body.status).toBe('BeingBuilt');
  const ref: ControlledRef = {
    planId: kit.planId,
    facilityId: kit.facilityId,
    documentType: 'CleaningLimitPolicy',
    documentId: edited.body.id as number,
  };
  return { ref, versionNumber: edited.body.versionNumber as number };
}

const readPolicy = async (residueType: string) =>
  (await kit.call('GET', `${kit.F}/cleaning_limit_policies/${residueType}`)).body;

/** The approval entry a forger writes: the right content hash, and the MAC they can make. */
async function forgedEntry(q: Db, ref: ControlledRef, versionNumber: number, mac?: string) {
  const [v] = await q.query<{ content: Record<string, unknown> }>(
    `select content from controlled_versions
      where document_type = $1 and document_id = $2 and version_number = $3`,
    [ref.documentType, ref.documentId, versionNumber],
  );
  const hash = contentHash(ref, versionNumber, v!.content);
  await writeAudit(q, SYSTEM, {
    planId: ref.planId,
    facilityId: ref.facilityId,
    domain: 'ElectronicSignature',
    action: 'ApprovedByRecord',
    entityId: ref.documentId,
    newValues: {
      documentType: ref.documentType,
      documentId: ref.documentId,
      versionNumber,
      status: 'Approved',
      approvedBy: BY,
      contentHash: hash,
      ...(mac ? { mac } : {}),
    },
  });
}

/** Puts the version being built in force as the app role may, without approveByRecord. */
async function putInForceBySql(q: Db, ref: ControlledRef, versionNumber: number) {
  await q.transaction(async (tx) => {
    await tx.query(
      `update controlled_versions set status = 'Deprecated', deprecated_at = now()
        where document_type = $1 and document_id = $2 and status = 'Approved'`,
      [ref.documentType, ref.documentId],
    );
    await tx.query(
      `update controlled_versions set status = 'Approved', signature_state = 'Signed',
              approved_at = now()
        where document_type = $1 and document_id = $2 and version_number = $3`,
      [ref.documentType, ref.documentId, versionNumber],
    );
  });
}

describe('an approval by another record', () => {
  it('puts the version in force with a MAC over what it approved', async () => {
    const { ref, versionNumber } = await policyWithDraft('Nitrosamine', { safetyFactor: 321 });
    await kit.server.db.transaction((tx) => approveByRecord(tx, SYSTEM, ref, BY, key));
    expect(await readPolicy('Nitrosamine')).toMatchObject({
      status: 'Approved',
      versionNumber,
      integrity: 'intact',
    });
    const [entry] = await kit.server.db.query<{ values: Record<string, unknown> }>(
      `select new_values as values from audit_log where action = 'ApprovedByRecord'
        and new_values ->> 'documentId' = $1 order by id desc limit 1`,
      [String(ref.documentId)],
    );
    const { mac, ...approved } = entry!.values;
    expect(mac).toBe(
      approvalMac(key, {
        facilityId: ref.facilityId,
        documentType: ref.documentType,
        documentId: ref.documentId,
        versionNumber,
        contentHash: approved.contentHash as string,
        approvedBy: BY,
      }),
    );
  });

  it('written by the app role without the key does not put a version in force', async () => {
    const { ref, versionNumber } = await policyWithDraft('Intermediate', { useARL: false });
    await putInForceBySql(kit.server.db, ref, versionNumber);
    await forgedEntry(kit.server.db, ref, versionNumber);
    const unsealed = await readPolicy('Intermediate');
    expect(unsealed).toMatchObject({
      status: 'IntegrityBroken',
      integrity: 'broken',
      integrityReason: expect.stringMatching(/approval by another record is not bound/),
    });
    // Nor with a MAC made under another key, nor one copied from another version's entry.
    await forgedEntry(kit.server.db, ref, versionNumber, 'ab'.repeat(32));
    expect((await readPolicy('Intermediate')).status).toBe('IntegrityBroken');
    const verify = await kit.call('GET', `${kit.F}/audit_logs/verify`);
    expect(verify.body.records.broken).toContainEqual(
      expect.objectContaining({ documentType: 'CleaningLimitPolicy', documentId: ref.documentId }),
    );
  });
});

describe('approvals by another record made before their MAC', () => {
  it('are bound once, at start, and one added to the list later never is', async () => {
    const owner = await kit.server.db.owner();
    const listOnly = (ids: string[]) =>
      owner.exec(`create or replace function approvals_by_record_before_mac() returns bigint[]
        language sql immutable as $$ select '{${ids.join(',')}}'::bigint[] $$`);
    const lastEntry = async () =>
      (
        await owner.query<{ id: string }>(
          `select id::text as id from audit_log where action = 'ApprovedByRecord'
            order by id desc limit 1`,
        )
      )[0]!.id;

    const earlier = await policyWithDraft('Detergent', { safetyFactor: 555 });
    await putInForceBySql(owner, earlier.ref, earlier.versionNumber);
    await forgedEntry(owner, earlier.ref, earlier.versionNumber);
    const earlierId = await lastEntry();
    await listOnly([earlierId]);
    expect((await readPolicy('Detergent')).status).toBe('IntegrityBroken');
    const config = kit.server.config;
    expect(await bindEarlierApprovals(kit.server.db, config, () => undefined)).toBe(1);
    expect(await readPolicy('Detergent')).toMatchObject({
      status: 'Approved',
      integrity: 'intact',
    });

    const later = await policyWithDraft('Chemical', { safetyFactor: 777 });
    await putInForceBySql(owner, later.ref, later.versionNumber);
    await forgedEntry(owner, later.ref, later.versionNumber);
    await listOnly([earlierId, await lastEntry()]);
    expect(await bindEarlierApprovals(kit.server.db, config, () => undefined)).toBe(0);
    expect((await readPolicy('Chemical')).status).toBe('IntegrityBroken');
  });
});
