import PgBoss from 'pg-boss';
import type { Queryable, SqlValue } from '../db/db.ts';

/** The one queue of the application (made by migration 20261125100100); jobs name themselves. */
export const QUEUE = 'carryover_jobs';

// pg-boss's maintenance sends BEGIN …; COMMIT scripts without parameters: several statements,
// which a prepared statement (both drivers' query) cannot hold.
const SCRIPT = /^\s*BEGIN\s*;/i;

/**
 * pg-boss's `db` option over one of our connections or transactions, so that pg-boss runs on
 * PGlite as on a server and a job is sent inside its caller's transaction.
 */
export function pgBossDb(q: Queryable): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length > 0) {
        // pg sends undefined as null; PGlite cannot serialise it.
        const params = values.map((v) => (v === undefined ? null : v)) as SqlValue[];
        return { rows: await q.query(text, params) };
      }
      if (SCRIPT.test(text)) {
        await q.exec(text);
        return { rows: [] };
      }
      return { rows: await q.query(text) };
    },
  };
}

const NO_DB: PgBoss.Db = {
  executeSql() {
    throw new Error('pg-boss: this call must name its connection (options.db)');
  },
};

let sender: PgBoss | undefined;

/**
 * A PgBoss that is never started and has no connection of its own: every call made through it
 * passes the transaction it runs in (`{ db: pgBossDb(tx) }`).
 */
export function pgBoss(): PgBoss {
  sender ??= new PgBoss({ db: NO_DB, migrate: false, supervise: false, schedule: false });
  return sender;
}
