import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody as Body } from '#server/test/facility-test-file.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';

/*
 * Goal-seek on mac-test-data's facility: A → B on Line 1 is governed by the general limit,
 * 10 ppm × MBS of B (100 kg) = 1,000 mg (dose 2,500 mg), over E1 + E2 = 130,000 sqcm. Each answer
 * is checked by putting it into the master data and reading the limit back.
 */

const t = useFacilityTestServer();
let facility: MacFacility;
beforeAll(async () => {
  facility = await buildMacFacility(t.server, t.facilityId);
});

const solve = (query: string) => t.call('GET', `${facility.F}/mac-matrix/solve?${query}`);

describe('GET mac-matrix/solve', () => {
  it('answers the smallest batch size of the next product, and that batch size reaches the MACO asked', async () => {
    const res = await solve('previous=A&next=B&limit=maco&atLeast=2000');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      requirement: { limit: 'maco', atLeast: 2000, unit: 'mg' },
      current: 1000,
      batchSize: { status: 'solved', unit: 'kg' },
      // MACO does not depend on the area or on recovery.
      area: { status: 'unaffected', value: null },
      recovery: { status: 'unaffected' },
    });
    const needed = (res.body.batchSize as Body).value as number;
    expect(needed).toBeCloseTo(200, 9);

    const products = await t.call('GET', `${facility.F}/products?search=B`);
    const b = (products.body.data as Body[]).find((p) => p.name === 'B')!;
    const current = await t.call('GET', `${facility.F}/products/${b.id}`);
    const edit = await t.call('POST', `${facility.F}/products/${b.id}`, {
      minBatchSize: { value: needed, unit: 'kg' },
      version: current.body.version,
      reason: 'Batch size the goal-seek found',
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const after = await solve('previous=A&next=B&limit=maco&atLeast=2000');
    expect(after.body.batchSize.status).toBe('passes');
    expect(after.body.current).toBeGreaterThanOrEqual(2000 * (1 - 1e-12));
  });

  it('answers the largest shared area for a surface limit', async () => {
    const now = await solve('previous=A&next=B&limit=sal&atLeast=1e-9');
    const sal = now.body.current as number;
    expect(now.body.area.status).toBe('passes');
    const res = await solve(`previous=A&next=B&limit=sal&atLeast=${sal * 2}`);
    expect(res.body.area).toMatchObject({ status: 'solved', unit: 'sqcm' });
    // SAL = MACO / area: twice the SAL needs half of E1 + E2 (130,000 sqcm).
    expect(res.body.area.value).toBeCloseTo(65_000, 6);
    expect(res.body.recovery.status).toBe('unaffected');
  });

  it('refuses bad input with 422 on its field and a pair that is not one with 404', async () => {
    for (const [query, property] of [
      ['previous=A&next=B&limit=loq&atLeast=1', 'limit'],
      ['previous=A&next=B&limit=maco&atLeast=-1', 'atLeast'],
      ['previous=A&next=B&limit=maco&atLeast=abc', 'atLeast'],
      ['previous=A&next=B&limit=maco', 'atLeast'],
    ]) {
      const bad = await solve(query!);
      expect(bad.status, query).toBe(422);
      expect(bad.body.errName).toBe('DataValidationError');
      expect((bad.body.errors as Body[]).map((e) => e.property)).toContain(property);
    }
    const unknown = await solve('previous=A&next=Nope&limit=maco&atLeast=1');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errName).toBe('NotFoundError');
    // A and C share no equipment: no cell.
    expect((await solve('previous=A&next=C&limit=maco&atLeast=1')).status).toBe(404);
  });
});
