import type { Db, Queryable } from '../db/db.ts';

/**
 * A Db over `db` that counts the statements sent through it, in its transactions too (BEGIN
 * and COMMIT not counted): how many round trips a service makes, on the real database.
 */
export function countStatements(db: Db): { db: Db; count: () => number } {
  let statements = 0;
  const counted = (q: Queryable): Queryable => ({
    query: (sql, params) => {
      statements += 1;
      return q.query(sql, params);
    },
    exec: (sql) => {
      statements += 1;
      return q.exec(sql);
    },
  });
  return {
    db: {
      ...db,
      ...counted(db),
      transaction: (fn) => db.transaction((tx) => fn(counted(tx))),
    },
    count: () => statements,
  };
}
