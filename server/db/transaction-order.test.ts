import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerTestDatabase, type ServerTestDatabase } from '../test/test-db.ts';
import type { Db } from './db.ts';
import { openPostgres } from './postgres-db.ts';

describe.runIf(Boolean(process.env.DATABASE_URL))(
  'a server keeping the embedded database’s order for a transaction’s own statements',
  () => {
    let database: ServerTestDatabase;
    let db: Db;
    beforeAll(async () => {
      database = await createServerTestDatabase();
      // As the owner: the test makes a table of its own.
      db = await openPostgres(database.ownerUrl, { max: 3, embeddedOrderMs: 1_000 });
      await db.exec('create table t (id int primary key, label text)');
      await db.query(`insert into t values (1, 'before')`);
    });
    afterAll(async () => {
      await db?.close();
      await database?.drop();
    });

    it('runs a statement the transaction’s code sent outside it after its commit, as the embedded database does', async () => {
      const order: string[] = [];
      let outside: Promise<unknown> | undefined;
      await db.transaction(async (tx) => {
        await tx.query(`update t set label = 'inside' where id = 1`);
        outside = db
          .query<{ label: string }>('select label from t where id = 1')
          .then((rows) => order.push(`outside read ${rows[0]?.label}`));
        await new Promise((resolve) => setTimeout(resolve, 100));
        order.push('inside done');
      });
      await outside;
      expect(order).toEqual(['inside done', 'outside read inside']);
    });

    it('fails a transaction that awaits a statement of its own sent outside it, naming the fault', async () => {
      const started = Date.now();
      await expect(
        db.transaction(async (tx) => {
          await tx.query(`update t set label = 'stuck' where id = 1`);
          await db.query('select label from t where id = 1');
        }),
      ).rejects.toThrow('A statement was sent outside the open transaction that started it');
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
      // Rolled back: nothing of it stayed.
      expect(await db.query('select label from t where id = 1')).toEqual([{ label: 'inside' }]);
    });

    it('fails a transaction opened and awaited inside another the same way', async () => {
      await expect(
        db.transaction(async () => {
          await db.transaction((inner) => inner.query('select 1'));
        }),
      ).rejects.toThrow('a transaction opened inside another');
    });

    it('holds nothing of other callers: a read beside an open transaction runs at once', async () => {
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const transaction = db.transaction(async (tx) => {
        await tx.query(`update t set label = 'held' where id = 1`);
        await held;
      });
      // Started outside the transaction's code: a server runs it on another connection now.
      const [row] = await db.query<{ label: string }>('select label from t where id = 1');
      expect(row).toEqual({ label: 'inside' });
      release();
      await transaction;
      expect(await db.query('select label from t where id = 1')).toEqual([{ label: 'held' }]);
    });
  },
);
