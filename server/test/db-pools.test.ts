import { expect, it } from 'vitest';
import type { Db } from '../db/db.ts';
import { createTestDb } from './test-db.ts';

/*
 * A test worker hands a used database to its next file only emptied back to the template
 * (pglite-pool.ts, pg-pool.ts): nothing a file wrote may reach the next one, and a database whose
 * schema a file changed is never handed on.
 */

const onServer = Boolean(process.env.DATABASE_URL);
// The server's pool resets in replica mode, which needs a superuser (pg-pool.ts).
const reusedOnServer = onServer && Boolean(process.env.DATABASE_SUPERUSER_URL);

const name = async (db: Db) =>
  (await db.query<{ name: string }>('select current_database() as name'))[0]!.name;

const firstSequence = async (db: Db) =>
  (
    await db.query<{ name: string; last: string | null }>(
      `select format('%I.%I', schemaname, sequencename) as name, last_value::text as last
         from pg_sequences order by 1 limit 1`,
    )
  )[0]!;

it('empties a used database back to the template: rows, counters and sequences', async () => {
  const first = await createTestDb();
  const owner = await first.owner();
  const before = await firstSequence(owner);
  const firstName = await name(first);
  await owner.query(
    `insert into rate_limit_counters (key, window_started_at, hits) values ('left by a file', now(), 1)`,
  );
  await owner.query(`select nextval('${before.name}')`);
  await owner.query(`select nextval('${before.name}')`);
  await first.close();

  const second = await createTestDb();
  try {
    if (reusedOnServer) expect(await name(second)).toBe(firstName);
    const secondOwner = await second.owner();
    expect(
      await secondOwner.query(`select key from rate_limit_counters where key = 'left by a file'`),
    ).toEqual([]);
    expect(await firstSequence(secondOwner)).toEqual(before);
  } finally {
    await second.close();
  }
});

it('never hands on a database whose schema a file changed', async () => {
  const first = await createTestDb();
  const firstName = await name(first);
  await (await first.owner()).query('create table left_by_a_file (id integer)');
  await first.close();

  const second = await createTestDb();
  try {
    if (onServer) expect(await name(second)).not.toBe(firstName);
    expect(
      await second.query(`select to_regclass('public.left_by_a_file')::text as found`),
    ).toEqual([{ found: null }]);
  } finally {
    await second.close();
  }
});
