import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MEASURES } from '#core/units/measures.ts';
import { useFacilityTestServer } from '#server/test/facility-test-file.ts';

/**
 * Issue 9, property-based: whatever facility data the API accepts, the MAC matrix and the other
 * limits views answer in bounded time, never with a 5xx. The data accumulates over the runs, so
 * later runs also check everything the earlier ones stored.
 */
const t = useFacilityTestServer();

const value = fc.oneof(
  fc.double({ min: 1e-6, max: 1e6, noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(1e-300, 5e-324, 1e300, 1e-12, 1, 1.7976931348623157e308),
);
const quantity = (units: readonly string[]) =>
  fc.record({ value, unit: fc.constantFrom(...units, '\u00b5g', 'sqft', 'ppm') });
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const activeArb = fc.record(
  {
    pde: optional(quantity(MEASURES.pde.allowed)),
    therapeuticDose: optional(quantity(MEASURES.td.allowed)),
    ld50: optional(quantity(MEASURES.ld50.allowed)),
    acceptableIntake: optional(quantity(MEASURES.ai.allowed)),
  },
  { requiredKeys: [] },
);
const productArb = fc.record({
  minBatchSize: quantity(MEASURES.minBatchSize.allowed),
  maxDailyDose: quantity(MEASURES.ldd.allowed),
  unitWeight: optional(quantity([...MEASURES.tabletWeight.allowed, 'ml'])),
  actives: fc.uniqueArray(fc.nat(5), { maxLength: 3 }),
});
const facilityArb = fc.record({
  actives: fc.array(activeArb, { minLength: 1, maxLength: 4 }),
  products: fc.array(productArb, { minLength: 1, maxLength: 5 }),
  equipment: fc.array(quantity(MEASURES.surfaceArea.allowed), { minLength: 1, maxLength: 4 }),
  productions: fc.array(
    fc.record({
      equipment: fc.uniqueArray(fc.nat(3), { maxLength: 4 }),
      products: fc.uniqueArray(fc.nat(4), { maxLength: 5 }),
    }),
    { maxLength: 3 },
  ),
});

let run = 0;
const VIEWS = [
  'mac-matrix',
  'mac-matrix?summary=true',
  'mac-matrix/pairs',
  'mac-matrix/grid',
  'limits/input',
  'limits/worst-cases',
  'limits/cleaning-agents',
];

describe('any facility data the API accepts', () => {
  it('gives a MAC matrix answer in bounded time, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(facilityArb, async (data) => {
        run += 1;
        const create = async (path: string, body: Record<string, unknown>) => {
          const res = await t.server.request<{ result?: { id: number } }>(
            'POST',
            `${t.F}/${path}`,
            {
              token: t.token,
              body,
            },
          );
          expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
          return res.body.result?.id;
        };
        const drop = (x: Record<string, unknown>) =>
          Object.fromEntries(Object.entries(x).filter(([, v]) => v !== undefined));
        const actives: number[] = [];
        for (const [i, a] of data.actives.entries()) {
          const id = await create('apis', { name: `R${run} active ${i}`, ...drop(a) });
          if (id !== undefined) actives.push(id);
        }
        const products: number[] = [];
        for (const [i, p] of data.products.entries()) {
          const chosen = p.actives.flatMap((k) => (actives[k] ? [{ activeId: actives[k] }] : []));
          const body = drop({ name: `R${run} product ${i}`, ...p, actives: chosen });
          const id = await create('products', body);
          if (id !== undefined) products.push(id);
        }
        const equipment: number[] = [];
        for (const [i, surfaceArea] of data.equipment.entries()) {
          const id = await create('equipments', { name: `R${run} item ${i}`, surfaceArea });
          if (id !== undefined) equipment.push(id);
        }
        for (const [i, line] of data.productions.entries()) {
          await create('productions', {
            name: `R${run} line ${i}`,
            equipmentIds: line.equipment.flatMap((k) => (equipment[k] ? [equipment[k]] : [])),
            productIds: line.products.flatMap((k) => (products[k] ? [products[k]] : [])),
          });
        }
        for (const view of VIEWS) {
          const started = Date.now();
          const res = await fetch(`${t.server.url}${t.F}/${view}`, {
            headers: { token: t.token },
            signal: AbortSignal.timeout(15_000),
          });
          const body = (await res.json()) as Record<string, unknown>;
          expect(res.status, `${view}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
          expect(Date.now() - started, view).toBeLessThan(15_000);
        }
      }),
      { numRuns: 12 },
    );
  }, 600_000);
});
