import { describe, expect, it } from 'vitest';
import { equipmentDef } from '#core/entities/defs/index.ts';
import { one } from '../db/db.ts';
import { useFacilityTestServer } from '../test/facility-test-file.ts';
import { listEntities } from './entity-store.ts';

const t = useFacilityTestServer();

const create = async (name: string, roomGrade: string | null) => {
  const res = await t.server.request('POST', `${t.F}/equipments`, {
    token: t.token,
    body: { name, material: 'Glass', surfaceArea: { value: 1, unit: 'sqm' }, roomGrade },
  });
  expect(res.status).toBe(200);
  return (res.body as { result: { id: number } }).result.id;
};

describe('listEntities with a filter', () => {
  it('adds the condition and its values, pages and counts, now and as of a moment', async () => {
    const facilityId = Number(/facilities\/(\d+)/.exec(t.F)![1]);
    const graded = await create('Filter graded', 'C');
    const ungraded = await create('Filter ungraded', null);
    const { now } = await one<{ now: string }>(t.server.db, `select now()::text as now`);
    const later = await create('Filter later', null);
    const query = { pageNumber: 1, pageLimit: 10, search: 'filter' };
    const byIds = (ids: number[]) => (param: (value: number[]) => string) =>
      `id = any(${param(ids)}::int[]) and room_grade is null`;

    const live = await listEntities(t.server.db, equipmentDef, facilityId, query, false, {
      filter: byIds([graded, ungraded, later]),
    });
    expect(live.data.map((e) => e.id)).toEqual([later, ungraded]);
    expect(live.total).toBe(2);

    const then = await listEntities(t.server.db, equipmentDef, facilityId, query, false, {
      asOf: now,
      filter: byIds([graded, ungraded, later]),
    });
    expect(then.data.map((e) => e.id)).toEqual([ungraded]);

    // A page past the end still tells how many there are.
    const past = await listEntities(
      t.server.db,
      equipmentDef,
      facilityId,
      { ...query, pageNumber: 5 },
      false,
      { asOf: now, filter: byIds([graded, ungraded, later]) },
    );
    expect(past).toMatchObject({ data: [], total: 1 });
  });
});
