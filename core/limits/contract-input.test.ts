import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLimitsInput } from './contract-input.ts';
import { contractDocument } from './contract-output.ts';

/** Whatever arrives on standard input, the engine answers with a document or a list of errors. */

function valid(): Record<string, unknown> {
  return {
    policy: { useLd50: true, areaBasis: 'shared' },
    products: [
      {
        id: 'A',
        minBatchSize: { value: 100, unit: 'kg' },
        maxDailyDose: { value: 400, unit: 'mg' },
        actives: [{ id: 'a1', pde: { value: 1, unit: 'ug' }, ld50: { value: 300, unit: 'mg/kg' } }],
      },
      {
        id: 'B',
        minBatchSize: { value: 1000, unit: 'units' },
        maxDailyDose: { value: 2, unit: 'units' },
        unitWeight: { value: 250, unit: 'mg' },
        actives: [{ id: 'b1', therapeuticDose: { value: 5, unit: 'mg' } }],
      },
    ],
    equipment: [
      { id: 'E1', surfaceArea: { value: 2, unit: 'sqm' } },
      { id: 'E2', surfaceArea: { value: 20, unit: 'sqin' } },
    ],
    trains: { A: ['E1', 'E2'], B: ['E2'] },
    sampling: { swabArea: { value: 25, unit: 'sqcm' }, rinseVolume: { value: 1, unit: 'L' } },
  };
}

/** Every path into the valid input, so a fuzzer can replace any one node. */
function paths(node: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(node)) node.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) out.push(...paths(v, [...prefix, k]));
  }
  return out;
}

function replaceAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const copy = Array.isArray(root) ? [...root] : { ...(root as Record<string, unknown>) };
  const container = copy as Record<string | number, unknown>;
  container[head as string | number] = replaceAt(container[head as string | number], rest, value);
  return copy;
}

function checkDocument(raw: unknown) {
  const parsed = parseLimitsInput(raw);
  if (!parsed.ok) {
    expect(parsed.errors.length).toBeGreaterThan(0);
    for (const e of parsed.errors) {
      expect(typeof e.property).toBe('string');
      expect(Object.values(e.constraints).every((m) => typeof m === 'string' && m.length > 0)).toBe(
        true,
      );
    }
    return;
  }
  const doc = contractDocument(parsed.input);
  const text = JSON.stringify(doc);
  expect(text).not.toMatch(/NaN|Infinity/);
  for (const pair of doc.pairs ?? []) {
    if (pair.maco) expect(pair.maco.value).toBeGreaterThanOrEqual(0);
    if (pair.sal) expect(pair.sal.value).toBeGreaterThanOrEqual(0);
  }
}

describe('input of any shape', () => {
  const allPaths = paths(valid());

  it('never throws when any node of a valid input is replaced by any JSON value', () => {
    fc.assert(
      fc.property(fc.constantFrom(...allPaths), fc.jsonValue(), (path, value) => {
        expect(() => checkDocument(replaceAt(valid(), path, value))).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });

  it('never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(() => checkDocument(value)).not.toThrow();
      }),
    );
  });

  it('accepts the valid input and ignores fields it does not know', () => {
    const raw = { ...valid(), comment: 'exported from LIMS', policy: { useSAR: true } };
    expect(parseLimitsInput(raw).ok).toBe(true);
  });

  it('refuses numbers that leave the computable range once converted', () => {
    const raw = valid();
    (raw.equipment as Record<string, unknown>[])[0] = {
      id: 'E1',
      surfaceArea: { value: 1e308, unit: 'sqm' },
    };
    const parsed = parseLimitsInput(raw);
    expect(parsed.ok ? [] : parsed.errors.map((e) => e.property)).toEqual([
      'equipment[0].surfaceArea.value',
    ]);
  });

  it('treats null optional quantities as absent', () => {
    const raw = valid();
    raw.sampling = { swabArea: null, rinseVolume: null };
    const parsed = parseLimitsInput(raw);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.input.sampling).toEqual({});
  });
});

describe('identifiers that are also JavaScript property names', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'handles a product called %s',
    (id) => {
      // the id replaces "A" everywhere, the key of A's train included
      const text = JSON.stringify(valid()).replaceAll('"A"', JSON.stringify(id));
      const raw = JSON.parse(text) as Record<string, unknown>;
      const parsed = parseLimitsInput(raw);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      const doc = contractDocument(parsed.input);
      expect(doc.pairs?.map((p) => p.previous)).toEqual([id, 'B']);
      // and a product of that name without a train has no pairs rather than a crash
      const noTrain = { ...parsed.input, trains: { B: ['E2'] } };
      expect(contractDocument(noTrain).pairs).toEqual([]);
    },
  );
});

describe('one active in several products (contracts/limits.md)', () => {
  type P = { actives: Record<string, unknown>[] };
  const withActives = (a: Record<string, unknown>[], b: Record<string, unknown>[]) => {
    const input = valid();
    const [pa, pb] = input.products as P[];
    pa!.actives = a;
    pb!.actives = b;
    return input;
  };
  const shared = { id: 'x', pde: { value: 1, unit: 'ug' }, ld50: { value: 300, unit: 'mg/kg' } };

  it.each([
    ['the same data', shared, true, undefined],
    [
      'the same data in another unit',
      { ...shared, pde: { value: 1000, unit: 'ng' } },
      true,
      undefined,
    ],
    [
      'a different PDE',
      { ...shared, pde: { value: 2, unit: 'ug' } },
      false,
      'products[1].actives[0].pde',
    ],
    [
      'a missing LD50',
      { id: 'x', pde: { value: 1, unit: 'ug' } },
      false,
      'products[1].actives[0].ld50',
    ],
  ])('with %s: accepted %s', (_name, second, ok, property) => {
    const parsed = parseLimitsInput(withActives([shared], [second]));
    expect(parsed.ok).toBe(ok);
    if (parsed.ok) {
      // both products carry it, and it limits each as the previous product
      const doc = contractDocument(parsed.input);
      expect(doc.pairs!.map((p) => p.governingActive)).toEqual(['x', 'x']);
    } else expect(parsed.errors.map((e) => e.property)).toEqual([property]);
  });

  it('still refuses one active twice in one product', () => {
    const parsed = parseLimitsInput(withActives([shared, shared], []));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.errors.map((e) => e.property)).toEqual(['products[0].actives[1].id']);
  });
});
