import { describe, expect, it } from 'vitest';
import type { TCoverageCell } from '#core/schemas/cleaning-assessments.schemas.ts';
import { cellSummary, isGap, layoutCoverage } from './coverage-matrix.ts';

function cell(
  product: string,
  train: string,
  state: TCoverageCell['state'],
  extra: Partial<TCoverageCell> = {},
): TCoverageCell {
  return {
    product,
    productId: product.charCodeAt(0),
    train,
    trainId: train.charCodeAt(0) + 1000,
    state,
    representative: null,
    currentLimit: 0.1,
    evidence: [],
    ...extra,
  };
}

const cells = [
  cell('Zeta', 'Line 2', 'study'),
  cell('Alpha', 'Line 2', 'notCovered'),
  cell('Alpha', 'Kettle', 'representative', { representative: 'Zeta' }),
  cell('Beta', 'Kettle', 'tightened'),
];

describe('layoutCoverage', () => {
  it('puts products in rows and trains in columns, both by name, with blanks where not made', () => {
    const layout = layoutCoverage(cells);
    expect(layout.trains.map((t) => t.name)).toEqual(['Kettle', 'Line 2']);
    expect(layout.rows.map((r) => r.product)).toEqual(['Alpha', 'Beta', 'Zeta']);
    expect(layout.rows[0]?.cells.map((c) => c?.state ?? null)).toEqual([
      'representative',
      'notCovered',
    ]);
    expect(layout.rows[1]?.cells.map((c) => c?.state ?? null)).toEqual(['tightened', null]);
    expect(layout.rows[2]?.cells.map((c) => c?.state ?? null)).toEqual([null, 'study']);
    expect(layout.counts).toEqual({ study: 1, representative: 1, tightened: 1, notCovered: 1 });
  });

  it('sorts numbers in names as numbers', () => {
    const layout = layoutCoverage([
      cell('P', 'Train 10', 'study', { trainId: 10 }),
      cell('P', 'Train 2', 'study', { trainId: 2 }),
    ]);
    expect(layout.trains.map((t) => t.name)).toEqual(['Train 2', 'Train 10']);
  });

  it('keeps only the rows and trains that have a cell of the chosen states', () => {
    const layout = layoutCoverage(cells, { states: ['notCovered', 'tightened'] });
    expect(layout.trains.map((t) => t.name)).toEqual(['Kettle', 'Line 2']);
    expect(layout.rows.map((r) => r.product)).toEqual(['Alpha', 'Beta']);
    // Alpha's representative cell on the kettle is filtered out, so it is blank.
    expect(layout.rows[0]?.cells.map((c) => c?.state ?? null)).toEqual([null, 'notCovered']);
    expect(layout.counts).toEqual({ study: 0, representative: 0, tightened: 1, notCovered: 1 });

    const studies = layoutCoverage(cells, { states: ['study'] });
    expect(studies.trains.map((t) => t.name)).toEqual(['Line 2']);
    expect(studies.rows.map((r) => r.product)).toEqual(['Zeta']);
  });

  it('matches the text against the product or the train, ignoring case', () => {
    expect(layoutCoverage(cells, { text: 'kett' }).rows.map((r) => r.product)).toEqual([
      'Alpha',
      'Beta',
    ]);
    expect(layoutCoverage(cells, { text: ' ZETA ' }).rows.map((r) => r.product)).toEqual(['Zeta']);
    expect(layoutCoverage(cells, { text: 'nothing' })).toEqual({
      trains: [],
      rows: [],
      counts: { study: 0, representative: 0, tightened: 0, notCovered: 0 },
    });
  });

  it('lays out 1,000 products on 20 trains quickly', () => {
    const many: TCoverageCell[] = [];
    for (let p = 0; p < 1000; p++)
      for (let t = 0; t < 20; t++)
        many.push({
          ...cell('x', 'y', p % 7 === 0 ? 'notCovered' : 'study'),
          product: `Product ${p}`,
          productId: p,
          train: `Train ${t}`,
          trainId: t,
        });
    const started = performance.now();
    const layout = layoutCoverage(many, { states: ['notCovered'] });
    expect(performance.now() - started).toBeLessThan(500);
    expect(layout.rows).toHaveLength(143);
    expect(layout.trains).toHaveLength(20);
    expect(layout.counts.notCovered).toBe(143 * 20);
  });
});

describe('cellSummary', () => {
  it('names the representative, the study, or just the state', () => {
    expect(cellSummary(cells[2]!)).toBe(
      "Alpha on Kettle: Covered by its group's representative (Zeta)",
    );
    const studied = cell('Zeta', 'Line 2', 'study', {
      evidence: [
        { kind: 'historicalStudy', id: 4, name: 'HS-4', limitAtStudy: 0.2, date: null },
        { kind: 'historicalStudy', id: 5, name: 'HS-5', limitAtStudy: null, date: null },
      ],
    });
    expect(cellSummary(studied)).toBe('Zeta on Line 2: Covered by a study (HS-4 and 1 more)');
    expect(cellSummary(cells[1]!)).toBe('Alpha on Line 2: Not covered');
  });

  it('counts not covered and tightened cells as gaps', () => {
    expect(
      ['study', 'representative', 'tightened', 'notCovered'].map((s) => isGap(s as never)),
    ).toEqual([false, false, true, true]);
  });
});
