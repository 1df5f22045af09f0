import { describe, expect, it } from 'vitest';
import { deferredDb } from './deferred-db.ts';
import { openEmptyPglite } from '../test/empty-pglite.ts';
import type { PgliteDb } from './pglite-db.ts';

describe('a database to build on before it is open', () => {
  it('holds each call until the database is ready, then passes calls straight on', async () => {
    let open!: (db: PgliteDb) => void;
    const ready = new Promise<PgliteDb>((resolve) => {
      open = resolve;
    });
    const db = deferredDb('pglite', ready);
    expect(db.changeCount?.()).toBeUndefined();
    const early = db.query<{ n: number }>('select 1 as n');
    const real = await openEmptyPglite();
    try {
      await real.exec('create table t (n int)');
      open(real);
      expect(await early).toEqual([{ n: 1 }]);
      await db.transaction((tx) => tx.query('insert into t values (2)'));
      expect(await db.query('select n from t')).toEqual([{ n: 2 }]);
      expect(db.changeCount?.()).toBe(real.changeCount?.());
    } finally {
      await db.close();
    }
    await expect(real.query('select 1')).rejects.toThrow('The embedded database stopped');
  });

  it('fails every call as opening it failed', async () => {
    const failure = new Error('the data directory is in use');
    const db = deferredDb('pglite', Promise.reject(failure));
    await expect(db.query('select 1')).rejects.toBe(failure);
    await expect(db.transaction(async () => 1)).rejects.toBe(failure);
  });
});
