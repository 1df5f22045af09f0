import pg from 'pg';
import type { SqlValue } from '../db/db.ts';
import type { PgliteDb } from '../db/pglite-db.ts';
import { withDatabase } from './test-db-urls.ts';

/*
 * The reliability references' DB-1 (EU GMP Annex 11 §7.2, data kept readable and intact): after
 * a restore, PostgreSQL's amcheck over the app's schema as pg_amcheck runs it, bt_index_check
 * with heapallindexed on every btree index and verify_heapam on every table.
 */

export interface AmcheckResult {
  indexes: number;
  tables: number;
  /** One line per problem found: empty when nothing is corrupt. */
  problems: string[];
}

type Run = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

async function checkSchema(run: Run): Promise<AmcheckResult> {
  // A schema of its own, so that the app's schema holds only what the app made.
  await run('create schema if not exists amcheck');
  await run('create extension if not exists amcheck schema amcheck');
  const indexes = await run<{ name: string }>(
    `select c.oid::regclass::text as name from pg_index i
       join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam
      where c.relnamespace = 'public'::regnamespace and a.amname = 'btree'
        and i.indisvalid and i.indisready order by 1`,
  );
  const tables = await run<{ name: string }>(
    `select oid::regclass::text as name from pg_class
      where relnamespace = 'public'::regnamespace and relkind in ('r', 'm') order by 1`,
  );
  const problems: string[] = [];
  for (const { name } of indexes) {
    try {
      await run('select amcheck.bt_index_check($1::text::regclass, true)', [name]);
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message}`);
    }
  }
  for (const { name } of tables) {
    const found = await run<{ blkno: number; offnum: number; msg: string }>(
      'select blkno, offnum, msg from amcheck.verify_heapam($1::text::regclass)',
      [name],
    );
    for (const f of found) problems.push(`${name} block ${f.blkno} item ${f.offnum}: ${f.msg}`);
  }
  return { indexes: indexes.length, tables: tables.length, problems };
}

/**
 * The check on an embedded database opened with PGlite's amcheck extension
 * (openEmptyPglite(dir, { amcheck: true }); the app's own never loads it), in place. A scratch
 * PGlite loaded with a dump of its data folder held the same files, and making it cost about
 * 0.9 s of CPU of each 1.1 s check (measured).
 */
export async function amcheckPglite(db: PgliteDb): Promise<AmcheckResult> {
  return checkSchema((sql, params) => db.query(sql, params as SqlValue[] | undefined));
}

/**
 * The check on a server database. amcheck is not a trusted extension: a superuser creates it
 * (DATABASE_SUPERUSER_URL, which scripts/ci-pg-roles.mjs prints); without one the owner tries,
 * and the test fails saying so rather than checking nothing.
 */
export async function amcheckServer(ownerUrl: string): Promise<AmcheckResult> {
  const superUrl = process.env.DATABASE_SUPERUSER_URL;
  const url = superUrl ? withDatabase(superUrl, new URL(ownerUrl).pathname.slice(1)) : ownerUrl;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await checkSchema(async (sql, params) => (await client.query(sql, params)).rows);
  } finally {
    await client.end();
  }
}
