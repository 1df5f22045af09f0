import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLimits } from '#core/limits/compile.ts';
import { contractDocument } from '#core/limits/contract-output.ts';
import {
  facilityOf,
  facilityShapeArb,
  positive,
  type Generated,
} from '#core/limits/facility-arbitrary.ts';
import { columnValues, columnsDocument } from '#core/limits/matrix-columns.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import { defaultPolicy } from '#core/limits/policy.ts';
import { ZMacColumns } from '#core/schemas/mac-matrix.schemas.ts';
import { macColumnsText } from './mac-columns.ts';

/*
 * The columns answer of GET mac-matrix?format=columns against the contract document, over
 * random facilities and policies: decoded, every pair, every number and every name is the
 * document's own (numbers compared bit for bit, NaN and null alike).
 */

const caseArb = fc.record({
  facility: facilityShapeArb,
  firstAvailable: fc.boolean(),
  useToxicity: fc.boolean(),
  useLd50: fc.boolean(),
  previousTrain: fc.boolean(),
  residueLimit: fc.option(positive(1e-9, 1), { nil: undefined }),
  productLimit: fc.option(positive(1e-3, 1e4), { nil: undefined }),
  swabArea: fc.option(positive(1, 100), { nil: undefined }),
  rinseVolume: fc.option(positive(0.1, 100), { nil: undefined }),
  formula: fc.boolean(),
  // A product made on nothing, which is in no pair (a gap in `rowStart`).
  alone: fc.boolean(),
});

function inputOf(r: Generated<typeof caseArb>): LimitsInput {
  const { products, equipment, trains } = facilityOf(r.facility);
  if (r.alone) {
    products.splice(1, 0, { ...products[0]!, id: 'Alone', actives: [] });
    trains.Alone = [];
  }
  return {
    policy: {
      ...defaultPolicy('Chemical'),
      useFirstAvailableCriteria: r.firstAvailable,
      useToxicity: r.useToxicity,
      useLd50: r.useLd50,
      areaBasis: r.previousTrain ? 'previousTrain' : 'shared',
      useResidueLimit: r.residueLimit !== undefined,
      residueLimit: { value: r.residueLimit ?? 10, unit: 'mg/sqcm' },
      useProductLimit: r.productLimit !== undefined,
    },
    products: products.map((p, i) =>
      r.productLimit !== undefined && i % 2 === 0
        ? { ...p, productLimit: { value: r.productLimit, unit: 'mg' } }
        : p,
    ),
    equipment,
    trains,
    sampling: {
      ...(r.swabArea === undefined ? {} : { swabArea: { value: r.swabArea, unit: 'sqcm' } }),
      ...(r.rinseVolume === undefined ? {} : { rinseVolume: { value: r.rinseVolume, unit: 'L' } }),
    },
    ...(r.formula ? { macFormulas: [{ id: 'F0', expression: '0.5 * HBEL * MBS / MDD' }] } : {}),
  };
}

const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

function columnsOf(input: LimitsInput) {
  const compiled = compileLimits(input);
  const { text, pairs } = macColumnsText({ compiled: () => compiled, uncomputable: [] });
  return { answer: ZMacColumns.parse(JSON.parse(text)), text, pairs };
}

describe('the MAC matrix in columns', () => {
  it('decodes to exactly the contract document, for any facility', () => {
    fc.assert(
      fc.property(caseArb, (r) => {
        const input = inputOf(r);
        const { answer, pairs } = columnsOf(input);
        const expected = json({ ...contractDocument(input), uncomputable: [] });
        expect(json(columnsDocument(answer))).toEqual(expected);
        expect(pairs).toBe((expected as { pairs: unknown[] }).pairs.length);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps every double bit for bit, where the decimal text would round nothing either', () => {
    fc.assert(
      fc.property(caseArb, (r) => {
        const input = inputOf(r);
        const { answer } = columnsOf(input);
        const doc = contractDocument(input);
        const decoded = columnsDocument(answer);
        doc.pairs!.forEach((pair, i) => {
          const got = decoded.pairs[i]!;
          expect(Object.is(got.maco?.value, pair.maco?.value)).toBe(true);
          expect(Object.is(got.sal?.value, pair.sal?.value)).toBe(true);
          expect(Object.is(got.swabLimit?.value, pair.swabLimit?.value)).toBe(true);
          expect(Object.is(got.rinseLimit?.value, pair.rinseLimit?.value)).toBe(true);
          for (const [key, value] of Object.entries(pair.criteria))
            expect(Object.is(got.criteria[key]?.value, value?.value)).toBe(true);
        });
      }),
      { numRuns: 50 },
    );
  });

  it('lists each name once and sends a criterion no pair has as null', () => {
    const input = inputOf({
      facility: {
        products: [
          { mbsKg: 100, mddMg: 400, pdeMg: 0.01, doseMg: 10, ld50: undefined },
          { mbsKg: 50, mddMg: 200, pdeMg: 0.02, doseMg: undefined, ld50: undefined },
          { mbsKg: 80, mddMg: 100, pdeMg: 0.03, doseMg: 5, ld50: undefined },
        ],
        areas: [1000, 2000],
        trainBits: [3, 3, 1, 1],
      },
      firstAvailable: false,
      useToxicity: true,
      useLd50: false,
      previousTrain: false,
      residueLimit: undefined,
      productLimit: undefined,
      swabArea: 25,
      rinseVolume: undefined,
      formula: false,
      alone: false,
    });
    const { answer, text } = columnsOf(input);
    expect(answer.count).toBe(6);
    expect(answer.names.products).toEqual(['P0', 'P1', 'P2']);
    expect(answer.rowStart).toEqual([0, 2, 4, 6]);
    expect(answer.criteria).toEqual(['health', 'dose', 'ld50', 'arl']);
    // No LD50 anywhere: that column is null; the others carry the doubles' own bytes.
    expect(answer.columns.criteria[2]).toBeNull();
    expect(answer.columns.maco).toMatchObject({ type: 'f64' });
    expect(answer.columns.next).toMatchObject({ type: 'u8' });
    // Governing indices fit a byte (-1 where none would make it signed).
    expect(['i8', 'u8']).toContain(answer.columns.governing.type);
    expect(answer.columns.swabLimit).toMatchObject({ type: 'f64' });
    expect(answer.columns.rinseLimit).toBeUndefined();
    // Two trains, {E0, E1} and {E0}: three distinct shared lists at most.
    expect(columnValues(answer.sharedSets.area).length).toBeLessThanOrEqual(3);
    expect(text).not.toContain('"previous"');
  });
});
