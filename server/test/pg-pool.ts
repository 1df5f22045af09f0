import { asSuperuser } from '../../scripts/pg-test-roles.mjs';
import { readFingerprint, readResetTemplate, type Query, type ResetTemplate } from './db-reset.ts';

/*
 * Server databases kept by this test worker between files, as pglite-pool.ts keeps embedded
 * ones. A copy of the template writes the whole database through the write-ahead log (16 MB),
 * and every DROP DATABASE forces the server to checkpoint and waits for it: about a second of a
 * file's time and a checkpoint of every other file's writes, ~250 times a run. Emptying a used
 * copy and putting back the migrations' rows (db-reset.ts) takes milliseconds. The reset skips
 * triggers in replica mode, which only a superuser may set: without DATABASE_SUPERUSER_URL every
 * file has a copy of its own, dropped after it. A copy whose catalog no longer matches the
 * template's, or that some connection still holds, is dropped; those left at the end are dropped
 * with the template (global-setup.ts).
 */

export interface PooledDatabase {
  name: string;
  drop: () => Promise<void>;
}

const superUrl = (): string | undefined => process.env.DATABASE_SUPERUSER_URL || undefined;

let template: Promise<ResetTemplate> | undefined;
const idle: PooledDatabase[] = [];

/** `work` with a superuser's queries on the database `name`. */
const onDatabase = <T>(name: string, work: (query: Query) => Promise<T>): Promise<T> =>
  asSuperuser(superUrl()!, (client) => work(async (sql) => (await client.query(sql)).rows), name);

/** A migrated, empty database: one this worker used before and emptied, or `create()`'s copy. */
export async function takeServerDatabase<D extends PooledDatabase>(
  create: () => Promise<D>,
): Promise<D> {
  if (!superUrl()) return create();
  const kept = idle.pop();
  if (kept) return kept as D;
  const fresh = await create();
  template ??= onDatabase(fresh.name, (query) => readResetTemplate(query, false));
  try {
    await template;
  } catch (error) {
    template = undefined;
    throw error;
  }
  return fresh;
}

/** Backends other than the asking one still on this database: the app's closed pools' included. */
const OTHERS = `select count(*)::int as n from pg_stat_activity
                 where datname = current_database() and pid <> pg_backend_pid()`;

/**
 * Empties a database a file has finished with (every connection of its own closed) and keeps it
 * for the next file, or drops it.
 */
export async function giveServerDatabase(database: PooledDatabase): Promise<void> {
  if (!superUrl() || !template) return database.drop();
  try {
    const kept = await onDatabase(database.name, async (query) => {
      const { fingerprint, reset } = await template!;
      // A closed pool's backends end a moment after the client hangs up.
      for (let wait = 0; (await query<{ n: number }>(OTHERS))[0]!.n > 0; wait += 1) {
        if (wait >= 40) return false;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const [prepared] = await query<{ n: number }>(
        `select count(*)::int as n from pg_prepared_xacts where database = current_database()`,
      );
      if (prepared!.n > 0 || (await readFingerprint(query, false)) !== fingerprint) return false;
      await query(reset);
      return true;
    });
    if (kept) {
      idle.push(database);
      return;
    }
  } catch {
    // A database that cannot be read or emptied is not handed to another file.
  }
  await database.drop();
}
