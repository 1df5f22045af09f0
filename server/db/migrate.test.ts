import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb } from '../test/test-db.ts';
import type { Db } from './db.ts';
import { loadMigrations, migrate } from './migrate.ts';
import { seedFirstStart } from './seed.ts';

let db: Db;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  await db?.close();
});

describe('migrations and first-start seed', () => {
  it('applies nothing twice', async () => {
    expect(await migrate(db)).toEqual([]);
    const [row] = await db.query<{ n: number }>('select count(*)::int as n from schema_migrations');
    expect(row?.n).toBe(loadMigrations().length);
  });

  it('seeds one plan, two facilities and an administrator once, and never again', async () => {
    const first = await seedFirstStart(db, { ADMIN_EMAIL: undefined, ADMIN_PASSWORD: undefined });
    expect(first.seeded).toBe(true);
    expect(first.oneTimePassword).toMatch(/.{12,}/);
    const again = await seedFirstStart(db, {
      ADMIN_EMAIL: 'other@example.com',
      ADMIN_PASSWORD: 'Other#1234',
    });
    expect(again).toEqual({ seeded: false });
    const facilities = await db.query<{ product_type: string; tier: string; group: string }>(
      `select f.product_type, f.tier, g.name as group from facilities f
         join facility_groups g on g.id = f.facility_group_id order by f.id`,
    );
    expect(facilities).toEqual([
      { product_type: 'product', tier: 'full', group: 'Main Site' },
      { product_type: 'api', tier: 'lite', group: 'Main Site' },
    ]);
    const users = await db.query<{ email: string; must_change_password: boolean }>(
      'select email, must_change_password from users',
    );
    // A generated password must be changed at first sign-in.
    expect(users).toEqual([{ email: 'admin@carryover.local', must_change_password: true }]);
  });

  it('refuses an administrator password that breaks the policy', async () => {
    await expect(
      seedFirstStart(db, { ADMIN_EMAIL: 'a@example.com', ADMIN_PASSWORD: 'short' }),
    ).rejects.toThrow(/ADMIN_PASSWORD/);
  });
});
