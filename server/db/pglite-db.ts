import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable, SqlValue } from './db.ts';

function wrap(q: Pick<PGlite, 'query' | 'exec'>): Queryable {
  return {
    async exec(sql: string) {
      await q.exec(sql);
    },
    async query<T>(sql: string, params?: readonly SqlValue[]) {
      const result = await q.query<T>(sql, params as unknown[] | undefined);
      return result.rows;
    },
  };
}

/** PGlite is one connection in this process: its own mutex serialises queries and transactions. */
export function pgliteDb(pg: PGlite): Db {
  const base = wrap(pg);
  return {
    kind: 'pglite',
    query: base.query,
    exec: base.exec,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  };
}

export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob }): Promise<Db> {
  const pg = await PGlite.create({
    // Same value types as the node-postgres driver: bigint and numeric as JS numbers.
    parsers: { 20: (v: string) => Number(v), 1700: (v: string) => Number(v) },
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  return pgliteDb(pg);
}
