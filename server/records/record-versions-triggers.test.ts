import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../test/test-db.ts';

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

  it('are append-only: updates and deletes are refused', async () => {
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
    await expect(db.query(`update record_versions set version = 0`)).rejects.toThrow(/append-only/);
    await expect(db.query(`delete from record_versions`)).rejects.toThrow(/append-only/);
  });
});
