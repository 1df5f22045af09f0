import type { Db, Queryable } from '#server/db/db.ts';

/**
 * Reads through `db`, and right after the first statement commits `write` in its own transaction:
 * what a concurrent writer does between two reads of one request. A reader that must show a
 * consistent moment reads everything that has to agree in its first statement.
 */
export function commitBetweenReads(db: Db, write: (tx: Queryable) => Promise<void>): Queryable {
  let written = false;
  return {
    query: async (sql, params) => {
      const rows = await db.query(sql, params);
      if (!written) {
        written = true;
        await db.transaction(write);
      }
      return rows as never;
    },
    exec: (sql) => db.exec(sql),
  };
}
