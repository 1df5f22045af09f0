import { beforeAll, describe, expect, it } from 'vitest';
import { syntheticLimitsInput } from '#bench/limits-input.ts';
import { parseLimitsInput } from '#core/limits/contract-input.ts';
import {
  ZMacGrid,
  type TMacGrid,
  type TMacPair,
  type TMacPairsPage,
} from '#core/schemas/mac-matrix.schemas.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { macGrid } from './mac-grid.ts';
import { freshPairsSource, pagePairs } from './mac-pairs.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';

const t = useFacilityTestServer();
let facility: MacFacility;
beforeAll(async () => {
  facility = await buildMacFacility(t.server, t.facilityId);
});

const get = (path: string, token = t.token, headers: Record<string, string> = {}) =>
  t.server.request<TMacGrid>('GET', `${facility.F}${path}`, { token, headers });

/** The fields of a pair the grid carries, as the pairs list gives them. */
function shown(pair: TMacPair) {
  return {
    previous: pair.previous,
    next: pair.next,
    maco: pair.maco?.value ?? null,
    sal: pair.sal?.value ?? null,
    governing: pair.governing,
    governingActive: pair.governingActive,
    salCapped: pair.salCapped,
    flags: pair.flags,
  };
}

/** The grid read back into pairs, row by row. */
function gridPairs(grid: TMacGrid): ReturnType<typeof shown>[] {
  const out: ReturnType<typeof shown>[] = [];
  grid.products.forEach((previous, p) => {
    for (let i = grid.rowStart[p]!; i < grid.rowStart[p + 1]!; i++) {
      const governing = grid.governing[i]!;
      const active = grid.governingActive[i]!;
      out.push({
        previous,
        next: grid.products[grid.next[i]!]!,
        maco: grid.maco[i]!,
        sal: grid.sal[i]!,
        governing: governing === -1 ? null : grid.criteria[governing]!,
        governingActive: active === -1 ? null : grid.actives[active]!,
        salCapped: grid.salCapped[i] === 1,
        flags: grid.flagTexts.filter((_text, bit) => (grid.flags[i]! & (1 << bit)) !== 0),
      });
    }
  });
  return out;
}

describe('GET {F}/mac-matrix/grid', () => {
  it('refuses a caller without RiskCalculation Get', async () => {
    const user = await buildUser(t.server.db, {
      permissions: permissionsWith({ Product: ['Get'] }),
    });
    const other = await t.server.login(user.username, user.password);
    expect((await get('/mac-matrix/grid', other)).status).toBe(403);
    expect((await get('/mac-matrix/grid', 'not-a-token')).status).toBe(401);
  });

  it('holds the pairs of the pairs list, row by row, with names and units once', async () => {
    const res = await get('/mac-matrix/grid');
    expect(res.status).toBe(200);
    const grid = ZMacGrid.parse(res.body);
    expect(grid.products).toEqual(['A', 'B', 'C', 'D']);
    expect(grid.units).toEqual({ maco: 'mg', sal: 'mg/sqcm' });
    expect(grid.rowStart).toEqual([0, 1, 2, 3, 4]);
    const pairs = await t.server.request<TMacPairsPage>(
      'GET',
      `${facility.F}/mac-matrix/pairs?pageLimit=500`,
      { token: t.token },
    );
    expect(gridPairs(grid)).toEqual(pairs.body.data.map(shown));
    expect(grid.flags.some((bits) => bits !== 0)).toBe(true);
  });

  it('narrows to one production, and refuses an unknown one or a bad date', async () => {
    const line1 = await get(`/mac-matrix/grid?productionId=${facility.line1}`);
    expect(line1.status).toBe(200);
    expect(gridPairs(line1.body).map((p) => `${p.previous}>${p.next}`)).toEqual(['A>B', 'B>A']);
    expect((await get('/mac-matrix/grid?productionId=999999')).status).toBe(404);
    const bad = await t.server.request<{ errName: string; errors: { property: string }[] }>(
      'GET',
      `${facility.F}/mac-matrix/grid?asOf=yesterday&productionId=x`,
      { token: t.token },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e) => e.property).sort()).toEqual(['asOf', 'productionId']);
  });

  it('follows a change of the data (the cache is keyed on the audit chain)', async () => {
    const before = gridPairs((await get('/mac-matrix/grid')).body);
    const [b] = (
      await t.call('GET', `${facility.F}/products?search=B&pageLimit=10`)
    ).body.data.filter((p: { name: string }) => p.name === 'B');
    const current = await t.call('GET', `${facility.F}/products/${b.id}`);
    const edit = await t.call('POST', `${facility.F}/products/${b.id}`, {
      minBatchSize: { value: 200, unit: 'kg' },
      reason: 'Larger batches',
      version: current.body.version,
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const after = gridPairs((await get('/mac-matrix/grid')).body);
    const maco = (pairs: typeof before) => pairs.find((p) => p.next === 'B')!.maco!;
    // A → B is governed by the general limit, 10 ppm × MBS: doubling B's batch doubles it.
    expect(maco(after)).toBeCloseTo(2 * maco(before), 6);
  });

  it('is compressed when the client accepts it', async () => {
    // Twelve more products on one item: 132 more pairs, well over the 1 kB threshold.
    const created = async (path: string, body: unknown) => {
      const res = await t.call('POST', `${facility.F}/${path}`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.result.id as number;
    };
    const active = await created('apis', { name: 'Delta', pde: { value: 2, unit: 'mg' } });
    const productIds: number[] = [];
    for (let i = 0; i < 12; i++) {
      productIds.push(
        await created('products', {
          name: `Syrup ${i}`,
          maxDailyDose: { value: 100 + i, unit: 'mg' },
          minBatchSize: { value: 40 + i, unit: 'kg' },
          actives: [{ activeId: active, amount: { value: 5, unit: 'mg' } }],
        }),
      );
    }
    const tank = await created('equipments', {
      name: 'Tank',
      surfaceArea: { value: 3, unit: 'sqm' },
    });
    await created('productions', { name: 'Line 3', equipmentIds: [tank], productIds });
    const plain = await get('/mac-matrix/grid', t.token, { 'accept-encoding': 'identity' });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.body.next).toHaveLength(4 + 12 * 11);
    for (const encoding of ['br', 'gzip']) {
      const res = await get('/mac-matrix/grid', t.token, { 'accept-encoding': encoding });
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(res.body).toEqual(plain.body);
    }
  });
});

describe('the grid of a large matrix', () => {
  // 150 products on 120 items: nearly every two share one, about 20,000 pairs.
  const parsed = parseLimitsInput(syntheticLimitsInput(150, 120, 5));
  if (!parsed.ok) throw new Error('synthetic input refused');
  const source = freshPairsSource(parsed.input);
  let grid: TMacGrid;
  let pairCount: number;
  beforeAll(() => {
    grid = macGrid({ ...source, uncomputable: [] });
    pairCount = grid.next.length;
  });

  it('takes at most 120 bytes a pair before compression', () => {
    expect(pairCount).toBeGreaterThan(10_000);
    const bytesPerPair = Buffer.byteLength(JSON.stringify(grid)) / pairCount;
    expect(bytesPerPair).toBeLessThanOrEqual(120);
  });

  it('equals the pairs list of the same input', () => {
    const page = pagePairs(source, { pageNumber: 1, pageLimit: pairCount });
    expect(page.total).toBe(pairCount);
    expect(gridPairs(ZMacGrid.parse(grid))).toEqual(
      JSON.parse(JSON.stringify(page.data.map(shown))),
    );
  });
});
