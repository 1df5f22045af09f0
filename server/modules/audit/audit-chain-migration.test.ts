import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/db.ts';
import { migrate } from '#server/db/migrate.ts';
import { chainProbe } from '#server/test/chain-probe.ts';
import { testActor } from '#server/test/factories.ts';
import { seededBefore } from '#server/test/migration-db.ts';
import { writeAuditMany } from '#server/db/audit-bulk.ts';
import { verifyChain } from './audit-chain.ts';
import type { AuditEntry } from '#server/db/audit-write.ts';

/*
 * Migration 20261128120100 on a database whose chains the per-row head trigger wrote: they
 * still verify, and the statement-level head continues them with the same hashes.
 */

const MIGRATION = '20261128120100_audit_chain_per_statement.sql';

let db: Db;
let facilityId: number;
beforeAll(async () => {
  ({ db, facilityId } = await seededBefore(MIGRATION));
});
afterAll(async () => {
  await db?.close();
});

const rows = (n: number, action: string): AuditEntry[] =>
  Array.from({ length: n }, (_, i) =>
    chainProbe({ planId: null, facilityId, action, entityId: i }),
  );

describe('the audit chain head moved once a statement', () => {
  it('continues a chain the per-row trigger wrote, and the whole chain verifies', async () => {
    const chain = `facility:${facilityId}`;
    await db.transaction((tx) => writeAuditMany(tx, testActor, rows(30, 'Before')));
    const before = await verifyChain(db, chain);
    expect(before).toMatchObject({ intact: true });
    await migrate(db);
    await db.transaction((tx) => writeAuditMany(tx, testActor, rows(30, 'After')));
    const after = await verifyChain(db, chain);
    expect(after).toMatchObject({ intact: true, rows: before.rows + 30 });
    const [first] = await db.query<{ seq: number; prev_hash: string }>(
      `select seq, prev_hash from audit_log where chain = $1 and action = 'After' order by seq limit 1`,
      [chain],
    );
    expect(first).toEqual({ seq: before.head!.seq + 1, prev_hash: before.head!.hash });
  });
});
