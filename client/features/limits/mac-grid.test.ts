import { describe, expect, it } from 'vitest';
import type { TMacGrid } from '#core/schemas/mac-matrix.schemas.ts';
import { MacGridData, shadeOf, shadeScale } from './mac-grid.ts';

/** A, B and D share a line; C shares nothing, so it has no row and no column. */
const answer: TMacGrid = {
  products: ['A', 'B', 'C', 'D'],
  actives: ['Drug X', 'Drug Y'],
  criteria: ['health', 'dose', 'ld50', 'arl', 'product'],
  flagTexts: ['No limit', 'Far looser'],
  units: { maco: 'mg', sal: 'mg/sqcm' },
  rowStart: [0, 2, 4, 4, 6],
  next: [1, 3, 0, 3, 0, 1],
  maco: [10, 1000, 0.5, null, 20, 30],
  sal: [0.01, 1, 0.0005, null, 0.02, 0.03],
  governing: [0, 3, 0, -1, 1, 1],
  governingActive: [0, 0, 1, -1, 1, 1],
  salCapped: [0, 1, 0, 0, 0, 0],
  flags: [0, 2, 0, 1, 0, 0],
  uncomputable: [],
};

describe('MacGridData', () => {
  const grid = new MacGridData(answer);

  it('puts the products with pairs on the axis, in the matrix order', () => {
    expect(Array.from(grid.axis)).toEqual([0, 1, 3]);
    expect(Array.from(grid.position)).toEqual([0, 1, -1, 2]);
    expect(grid.pairCount).toBe(6);
  });

  it('finds the pair of a cell, or none', () => {
    expect(grid.pairAt(0, 3)).toBe(1);
    expect(grid.pairAt(1, 0)).toBe(2);
    expect(grid.pairAt(3, 1)).toBe(5);
    expect(grid.pairAt(0, 0)).toBe(-1);
    expect(grid.pairAt(2, 0)).toBe(-1);
    expect(grid.firstFrom(1, 1)).toBe(3);
    expect(grid.firstFrom(1, 4)).toBe(4);
  });

  it('reads numbers, names and flags back, null as NaN', () => {
    expect(Number.isNaN(grid.maco[3]!)).toBe(true);
    expect(grid.governingKey(1)).toBe('arl');
    expect(grid.governingKey(3)).toBeNull();
    expect(grid.governingActiveName(2)).toBe('Drug Y');
    expect(grid.governingActiveName(3)).toBeNull();
    expect(grid.flagsOf(1)).toEqual(['Far looser']);
    expect(grid.flagsOf(3)).toEqual(['No limit']);
  });
});

describe('shading', () => {
  it('spreads bins evenly over the decades, lowest value first', () => {
    const scale = shadeScale(Float64Array.of(0.001, 0.01, Number.NaN, 1, 1000), 6)!;
    expect(scale.bounds).toHaveLength(7);
    expect(scale.bounds[0]).toBe(0.001);
    expect(scale.bounds[1]).toBeCloseTo(0.01, 12);
    expect(scale.bounds[6]).toBe(1000);
    expect(shadeOf(scale, 0.001)).toBe(0);
    expect(shadeOf(scale, 0.02)).toBe(1);
    expect(shadeOf(scale, 1000)).toBe(5);
    expect(shadeOf(scale, Number.NaN)).toBe(-1);
  });

  it('has one bin when every value is the same, and none without values', () => {
    const one = shadeScale(Float64Array.of(5, 5, Number.NaN), 6)!;
    expect(one.bounds).toEqual([5, 5]);
    expect(shadeOf(one, 5)).toBe(0);
    expect(shadeScale(Float64Array.of(Number.NaN), 6)).toBeNull();
  });
});
