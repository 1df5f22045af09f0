import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '#server/db/db.ts';
import { openPostgres } from '#server/db/postgres-db.ts';
import { chainProbe } from '#server/test/chain-probe.ts';
import { testActor } from '#server/test/factories.ts';
import { withDatabase } from '#server/test/test-db-urls.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';
import { writeAuditMany } from './audit-bulk.ts';
import { verifyChain } from '#server/modules/audit/audit-chain.ts';
import { writeAudit, type AuditEntry } from '#server/db/audit-write.ts';

let server: TestServer;
let f: { id: number; plan_id: number };
beforeAll(async () => {
  server = await startTestServer();
  const [row] = await server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id limit 1',
  );
  f = row!;
});
afterAll(async () => {
  await server?.close();
});

function entries(n: number, action: string, facility = true): AuditEntry[] {
  return Array.from({ length: n }, (_, i) =>
    chainProbe({
      planId: f.plan_id,
      facilityId: facility ? f.id : null,
      action,
      entityId: i,
      newValues: { name: `Row ${i}` },
    }),
  );
}

/** Each row of the chain whose stored hash is its own recomputed one, in seq order. */
async function rowsOf(db: Db, chain: string, action: string) {
  return db.query<{ seq: number; prev_hash: string; hash: string; own: boolean }>(
    `select seq, prev_hash, hash,
            hash = encode(sha256(convert_to(audit_row_text(a), 'UTF8')), 'hex') as own
       from audit_log a where chain = $1 and action = $2 order by seq`,
    [chain, action],
  );
}

describe('audit rows written many to a statement', () => {
  it('chain row by row, with a hash of each row, and move the head to the last', async () => {
    const chain = `facility:${f.id}`;
    const before = await verifyChain(server.db, chain);
    // One statement of 300 rows of two chains, between single-row statements.
    const mixed = entries(300, 'Bulk').map((e, i) => (i % 3 ? e : { ...e, facilityId: null }));
    await server.db.transaction(async (tx) => {
      await writeAudit(tx, testActor, entries(1, 'Bulk')[0]!);
      await writeAuditMany(tx, testActor, mixed);
      await writeAudit(tx, testActor, entries(1, 'Bulk')[0]!);
    });
    const rows = await rowsOf(server.db, chain, 'Bulk');
    expect(rows).toHaveLength(202);
    rows.forEach((row, i) => {
      expect(row.own).toBe(true);
      expect(row.seq).toBe(before.rows + i + 1);
      if (i > 0) expect(row.prev_hash).toBe(rows[i - 1]!.hash);
    });
    const after = await verifyChain(server.db, chain);
    expect(after).toMatchObject({ intact: true, rows: before.rows + 202 });
    expect(after.head).toEqual({ seq: rows.at(-1)!.seq, hash: rows.at(-1)!.hash });
    expect(await verifyChain(server.db, `plan:${f.plan_id}`)).toMatchObject({ intact: true });
  });

  it('detect one row changed behind the triggers', async () => {
    const chain = `facility:${f.id}`;
    await server.db.transaction((tx) => writeAuditMany(tx, testActor, entries(50, 'Tampered')));
    const rows = await rowsOf(server.db, chain, 'Tampered');
    const target = rows[25]!.seq;
    // Someone with the owner's rights: the app role may not disable triggers.
    const owner = await server.db.owner();
    await owner.transaction(async (tx) => {
      await tx.query('alter table audit_log disable trigger audit_log_no_update');
      await tx.query(`update audit_log set reason = 'tampered' where chain = $1 and seq = $2`, [
        chain,
        target,
      ]);
      await tx.query('alter table audit_log enable trigger audit_log_no_update');
    });
    expect(await verifyChain(server.db, chain)).toMatchObject({
      intact: false,
      brokenSeq: target,
      problem: 'hash',
    });
  });

  it('keep one valid chain when several writers insert many rows at once', async () => {
    const chain = `plan:${f.plan_id}`;
    const before = await verifyChain(server.db, chain);
    const writers = 8;
    // On a server, each writer has its own connection, so the statements really race.
    const url = process.env.DATABASE_URL;
    const [db] = await server.db.query<{ name: string }>('select current_database() as name');
    const pool = url
      ? await openPostgres(withDatabase(url, db!.name), { max: writers })
      : server.db;
    try {
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          for (let t = 0; t < 3; t += 1) {
            const action = `w${w}-t${t}`;
            await pool.transaction(async (tx) => {
              await writeAuditMany(tx, testActor, entries(40, action, false));
              await writeAudit(tx, testActor, entries(1, action, false)[0]!);
              await writeAuditMany(tx, testActor, entries(40, action, false));
            });
          }
        }),
      );
    } finally {
      if (pool !== server.db) await pool.close();
    }
    const after = await verifyChain(server.db, chain);
    expect(after).toMatchObject({ intact: true, rows: before.rows + writers * 3 * 81 });
    // Each transaction's rows stand together: the head lock queues writers, it does not mix them.
    const order = await server.db.query<{ action: string }>(
      `select action from audit_log where chain = $1 and seq > $2 order by seq`,
      [chain, before.rows],
    );
    const runs = order.filter((r, i) => i === 0 || r.action !== order[i - 1]!.action);
    expect(runs).toHaveLength(writers * 3);
  });
});
