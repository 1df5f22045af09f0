import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type PgliteDb } from './pglite-db.ts';

describe('the embedded database in its worker thread', () => {
  let db: PgliteDb;
  beforeAll(async () => {
    db = await openPglite({});
    await db.exec(`create table t (id int primary key, label text not null, at timestamptz,
      n numeric, big bigint, doc jsonb, bytes bytea)`);
  });
  afterAll(() => db.close());

  it('passes values both ways with the types of the node-postgres driver', async () => {
    const at = new Date('2026-11-29T07:00:00.000Z');
    await db.query('insert into t values ($1, $2, $3, $4, $5, $6, $7)', [
      1,
      'one',
      at,
      1.25,
      9_007_199_254_740_991,
      { a: [1, 'x'] },
      new Uint8Array([1, 2, 3]),
    ]);
    const [row] = await db.query<Record<string, unknown>>('select * from t where id = 1');
    expect(row).toEqual({
      id: 1,
      label: 'one',
      at,
      n: 1.25,
      big: 9_007_199_254_740_991,
      doc: { a: [1, 'x'] },
      bytes: new Uint8Array([1, 2, 3]),
    });
  });

  it('throws database errors with their fields', async () => {
    const error = await db.query('insert into t (id, label) values (1, $1)', ['again']).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      code: '23505',
      constraint: 't_pkey',
      message: expect.stringContaining('duplicate key'),
    });
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    const value = await db.transaction(async (tx) => {
      await tx.query(`insert into t (id, label) values (2, 'two')`);
      return 'kept';
    });
    expect(value).toBe('kept');
    const refusal = new Error('refused');
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`insert into t (id, label) values (3, 'three')`);
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    const rows = await db.query<{ id: number }>('select id from t where id in (2, 3) order by id');
    expect(rows).toEqual([{ id: 2 }]);
  });

  it('holds other statements until an open transaction ends', async () => {
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.query(`update t set label = 'inside' where id = 2`);
      outside = db
        .query<{ label: string }>('select label from t where id = 2')
        .then((rows) => order.push(`outside read ${rows[0]?.label}`));
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('inside done');
    });
    await outside;
    expect(order).toEqual(['inside done', 'outside read inside']);
  });

  it('fails a statement after a failed one in the same transaction, then recovers', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query('select 1/0').catch(() => undefined);
        await tx.query('select 1');
      }),
    ).rejects.toMatchObject({ code: '25P02' });
    expect(await db.query('select 1 as one')).toEqual([{ one: 1 }]);
  });

  it('dumps its data directory for another database to load', async () => {
    const copy = await openPglite({ loadDataDir: await db.dumpDataDir() });
    try {
      expect(await copy.query('select id, label from t order by id')).toEqual([
        { id: 1, label: 'one' },
        { id: 2, label: 'inside' },
      ]);
    } finally {
      await copy.close();
    }
  });
});

describe('opening the embedded database', () => {
  it('keeps its data on disk between openings', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'carryover-pglite-'));
    try {
      const first = await openPglite({ dataDir });
      await first.exec('create table kept (v text); insert into kept values ($$saved$$)');
      await first.close();
      const second = await openPglite({ dataDir });
      expect(await second.query('select v from kept')).toEqual([{ v: 'saved' }]);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    // The first opening runs initdb on disk, about 8 s of CPU: 90 s went by at a load of 27.
  }, 300_000);

  it('refuses every call once it is closed', async () => {
    const db = await openPglite({});
    await db.close();
    await expect(db.query('select 1')).rejects.toThrow('The embedded database stopped');
  });
});
