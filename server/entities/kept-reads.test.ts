import { beforeAll, describe, expect, it } from 'vitest';
import { equipmentDef, productsDef } from '#core/entities/defs/index.ts';
import { seedDemo } from '#server/cli/seed-demo.ts';
import type { Queryable } from '../db/db.ts';
import { useFacilityTestServer } from '../test/facility-test-file.ts';
import { keepingView } from '../db/kept-reads.ts';
import { allEntities } from './entity-store.ts';

const t = useFacilityTestServer();

beforeAll(async () => {
  await seedDemo(t.server.db, t.facilityId);
});

/** The server's database, counting the statements sent through it. */
function counted(): { q: Queryable; statements: string[] } {
  const statements: string[] = [];
  const db = t.server.db;
  return {
    statements,
    q: {
      query: (sql, params) => {
        statements.push(sql);
        return db.query(sql, params);
      },
      exec: (sql) => db.exec(sql),
    },
  };
}

describe('keepingView', () => {
  it('reads each entity’s records once through a view, handing every caller the same array', async () => {
    const { q, statements } = counted();
    const once = keepingView(q);
    const [products, again] = await Promise.all([
      allEntities(once, productsDef, t.facilityId),
      allEntities(once, productsDef, t.facilityId),
    ]);
    expect(products.length).toBeGreaterThan(0);
    expect(again).toBe(products);
    expect(await allEntities(once, productsDef, t.facilityId)).toBe(products);
    expect(statements).toHaveLength(1);
    // Another entity, and the same records as read without the view.
    const equipment = await allEntities(once, equipmentDef, t.facilityId);
    expect(statements).toHaveLength(2);
    expect(equipment).toEqual(await allEntities(t.server.db, equipmentDef, t.facilityId));
    expect(products).toEqual(await allEntities(t.server.db, productsDef, t.facilityId));
  });

  it('reads again through another view, and as of a moment every time', async () => {
    const { q, statements } = counted();
    const first = await allEntities(keepingView(q), productsDef, t.facilityId);
    const second = await allEntities(keepingView(q), productsDef, t.facilityId);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    const once = keepingView(q);
    const asOf = new Date().toISOString();
    await allEntities(once, productsDef, t.facilityId, { asOf });
    await allEntities(once, productsDef, t.facilityId, { asOf });
    expect(statements).toHaveLength(4);
  });
});
