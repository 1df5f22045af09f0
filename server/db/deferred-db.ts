import type { Db } from './db.ts';

/**
 * A Db to build the app on while the database still opens and migrates (at start-up the two
 * overlap): a call made before `ready` settles waits for it, and fails as it fails.
 */
export function deferredDb(kind: Db['kind'], ready: Promise<Db>): Db {
  let db: Db | undefined;
  ready.then(
    (opened) => {
      db = opened;
    },
    () => undefined, // each waiting call gets the failure
  );
  return {
    kind,
    query: (sql, params) => (db ? db.query(sql, params) : ready.then((d) => d.query(sql, params))),
    exec: (sql) => (db ? db.exec(sql) : ready.then((d) => d.exec(sql))),
    transaction: (fn) => (db ? db.transaction(fn) : ready.then((d) => d.transaction(fn))),
    close: () => (db ? db.close() : ready.then((d) => d.close())),
    // Before it is ready nothing was read, so nothing may be answered again from a count.
    changeCount: () => db?.changeCount?.(),
    load: () => db?.load?.(),
  };
}
