import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractDocument } from '#core/limits/contract-output.ts';
import { facilityLimitsInput } from '#server/modules/limits/facility-limits-input.ts';
import { createTestDb } from '#server/test/test-db.ts';
import type { Db } from '#server/db/db.ts';
import { seedDemo } from './seed-demo.ts';
import { seedFirstStart } from '#server/db/seed.ts';

let db: Db;
beforeAll(async () => {
  db = await createTestDb();
  await seedFirstStart(db, { ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'Admin#12345' });
});
afterAll(async () => {
  await db?.close();
});

describe('demo data', () => {
  it('fills a facility with enough data for a working matrix, audited, and only once', async () => {
    const counts = await seedDemo(db, 1);
    expect(counts.products).toBeGreaterThanOrEqual(40);
    expect(counts.equipment).toBeGreaterThanOrEqual(80);
    const input = await facilityLimitsInput(db, 1);
    const doc = contractDocument(input);
    expect(doc.pairs!.length).toBeGreaterThan(200);
    expect(doc.pairs!.every((p) => p.maco === null || p.maco.value > 0)).toBe(true);
    expect(doc.products.length).toBe(counts.products);
    const [audit] = await db.query<{ n: number }>(
      `select count(*)::int as n from audit_log where facility_id = 1 and action = 'Create'`,
    );
    expect(audit?.n).toBe(Object.values(counts).reduce((a, b) => a + b, 0));
    await expect(seedDemo(db, 1)).rejects.toThrow(/already has products/);
    const [products] = await db.query<{ n: number }>('select count(*)::int as n from products');
    expect(products?.n).toBe(counts.products);
  });
});
