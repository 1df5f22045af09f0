import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/db.ts';
import { testDatabaseRoles } from '../test/test-db-urls.ts';
import { createTestDb, type TestDb } from '../test/test-db.ts';

const twoRoles = Boolean(process.env.DATABASE_URL) && Boolean(testDatabaseRoles().appRole);

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  await db?.close();
});

describe('record_versions triggers', () => {
  it('keep the versions of every table with a version column', async () => {
    const tables = await db.query<{ table_name: string; kept: boolean; id_type: string }>(
      `select c.table_name,
              exists (select 1 from pg_trigger g
                       where g.tgrelid = format('%I', c.table_name)::regclass
                         and g.tgfoid = 'record_version_keep'::regproc
                         and not g.tgisinternal and g.tgenabled <> 'D') as kept,
              (select a.atttypid::regtype::text from pg_index i
                 join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                where i.indrelid = format('%I', c.table_name)::regclass and i.indisprimary
                  and array_length(i.indkey, 1) = 1) as id_type
         from information_schema.columns c
         join information_schema.tables t
           on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = 'public' and c.column_name = 'version'
          and t.table_type = 'BASE TABLE' and c.table_name <> 'record_versions'
        order by c.table_name`,
    );
    expect(tables.length).toBeGreaterThan(20);
    const missing = tables.filter((t) => !t.kept).map((t) => t.table_name);
    expect(missing, "tables whose migration lacks select keep_record_versions('…')").toEqual([]);
    // record_id is the row's integer primary key: a table keyed otherwise needs a wider one.
    const otherIds = tables.filter((t) => t.id_type !== 'integer').map((t) => t.table_name);
    expect(otherIds).toEqual([]);
  });

  it('backfilled one version of each row that existed before', async () => {
    const [row] = await db.query<{ missing: number }>(
      `select count(*)::int as missing from facilities f
        where not exists (select 1 from record_versions v
                           where v.table_name = 'facilities' and v.record_id = f.id)`,
    );
    expect(row!.missing).toBe(0);
  });

  it("are append-only: even the owner's updates and deletes are refused", async () => {
    const owner = await db.owner();
    const [plan] = await db.query<{ id: number }>(
      `insert into plans (name) values ('Versions plan') returning id`,
    );
    await db.query(`insert into plan_settings (plan_id, password_policy) values ($1, '{}')`, [
      plan!.id,
    ]);
    const [kept] = await db.query<{ n: number }>(
      `select count(*)::int as n from record_versions where table_name = 'plan_settings' and record_id = $1`,
      [plan!.id],
    );
    expect(kept!.n).toBeGreaterThan(0);
    for (const sql of [
      'update record_versions set version = 0',
      'delete from record_versions',
      'truncate record_versions',
    ])
      expect(await sqlError(owner, sql), sql).toMatch(/record_versions is append-only/);
  });
});

describe('recorded_at', () => {
  it('is taken as the transaction commits, in the order of its changes', async () => {
    const [plan] = await db.query<{ id: number }>(
      `insert into plans (name) values ('Commit plan') returning id`,
    );
    const written = await db.transaction(async (tx) => {
      await tx.query(`insert into plan_settings (plan_id, password_policy) values ($1, '{}')`, [
        plan!.id,
      ]);
      await tx.query(`update plan_settings set version = 2 where plan_id = $1`, [plan!.id]);
      const [row] = await tx.query<{ at: string }>(`select clock_timestamp()::text as at`);
      // Time passes between the writes and the commit (PGlite's clock counts milliseconds).
      await tx.query(`select pg_sleep(0.01)`);
      return row!.at;
    });
    const kept = await db.query<{ version: number; after: boolean }>(
      `select version, recorded_at > $2::timestamptz as after from record_versions
        where table_name = 'plan_settings' and record_id = $1 order by recorded_at, id`,
      [plan!.id, written],
    );
    expect(kept).toEqual([
      { version: 1, after: true },
      { version: 2, after: true },
    ]);
  });
});

describe('versions of a user', () => {
  it('leave out the password hash and sign-in bookkeeping, which alone keep no version', async () => {
    const [plan] = await db.query<{ id: number }>(
      `insert into plans (name) values ('Users plan') returning id`,
    );
    const [user] = await db.query<{ id: number }>(
      `insert into users (plan_id, first_name, last_name, username, password_hash)
       values ($1, 'Ada', 'Byron', 'EMP-V1', 'secret-hash') returning id`,
      [plan!.id],
    );
    await db.query(
      `update users set failed_attempts = 3, locked_until = now() + interval '5 minutes' where id = $1`,
      [user!.id],
    );
    await db.query(`update users set last_name = last_name where id = $1`, [user!.id]);
    await db.query(`update users set last_name = 'Lovelace', version = 2 where id = $1`, [
      user!.id,
    ]);
    const kept = await db.query<{ version: number; row_data: Record<string, unknown> }>(
      `select version, row_data from record_versions where table_name = 'users' and record_id = $1
        order by recorded_at, id`,
      [user!.id],
    );
    expect(kept.map((k) => [k.version, k.row_data.last_name])).toEqual([
      [1, 'Byron'],
      [2, 'Lovelace'],
    ]);
    for (const k of kept) {
      expect(k.row_data).not.toHaveProperty('password_hash');
      expect(k.row_data).not.toHaveProperty('failed_attempts');
    }
  });
});

async function sqlError(q: Db, sql: string): Promise<string> {
  try {
    await q.query(sql);
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return `${e.code ?? ''} ${e.message ?? ''}`;
  }
  return 'accepted';
}

describe.runIf(twoRoles)('record_versions and the app role on a PostgreSQL server', () => {
  it('refuses the app any change but an insert, for want of a privilege', async () => {
    for (const sql of [
      'update record_versions set version = 0',
      'delete from record_versions',
      'truncate record_versions',
      'alter table record_versions disable trigger record_versions_no_update',
      'drop trigger keep_record_versions on facility_rules',
    ])
      expect(await sqlError(db, sql), sql).toMatch(/^42501 .*(permission denied|must be owner)/);
  });

  it('lets the app write versioned records, whose versions the trigger keeps', async () => {
    const [plan] = await db.query<{ id: number }>(
      `insert into plans (name) values ('App role plan') returning id`,
    );
    await db.query(`insert into plan_settings (plan_id, password_policy) values ($1, '{}')`, [
      plan!.id,
    ]);
    await db.query(`update plan_settings set version = version + 1 where plan_id = $1`, [plan!.id]);
    const kept = await db.query<{ version: number }>(
      `select version from record_versions where table_name = 'plan_settings' and record_id = $1
        order by recorded_at`,
      [plan!.id],
    );
    expect(kept.map((k) => k.version)).toEqual([1, 2]);
  });
});
