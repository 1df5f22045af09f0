import { PGlite } from '@electric-sql/pglite';
import { changeCounter, type ChangeCounter, type Db, type Queryable, type SqlValue } from './db.ts';

/** Counts statements once they end (see Db.changeCount). */
function wrap(q: Pick<PGlite, 'query' | 'exec'>, counter: ChangeCounter): Queryable {
  return {
    async exec(sql: string) {
      await counter.after(null, () => q.exec(sql));
    },
    async query<T>(sql: string, params?: readonly SqlValue[]) {
      const result = await counter.after(sql, () =>
        q.query<T>(sql, params as unknown[] | undefined),
      );
      return result.rows;
    },
  };
}

/** PGlite is one connection in this process: its own mutex serialises queries and transactions. */
export function pgliteDb(pg: PGlite): Db {
  const counter = changeCounter();
  const base = wrap(pg, counter);
  return {
    kind: 'pglite',
    query: base.query,
    exec: base.exec,
    transaction: (fn) => counter.after(null, () => pg.transaction((tx) => fn(wrap(tx, counter)))),
    close: () => pg.close(),
    changeCount: counter.count,
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
