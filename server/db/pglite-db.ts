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

const SHARED_BUFFERS = '32MB';

export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob }): Promise<Db> {
  const pg = await PGlite.create({
    // Same value types as the node-postgres driver: bigint and numeric as JS numbers.
    parsers: { 20: (v: string) => Number(v), 1700: (v: string) => Number(v) },
    // PGlite's 128 MB of shared buffers are all written at start-up, so all of them stay
    // resident (150 MiB of the process's 400 at rest). A site's working set fits in far fewer;
    // a page not in them is read through the operating system's file cache.
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  return pgliteDb(pg);
}
