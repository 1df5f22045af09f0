import { describe, expect, it } from 'vitest';
import type { ContractPair } from '#core/limits/contract-output.ts';
import { filterPairs, governingKeys, productNames } from './matrix-filter.ts';
import { PairStore } from './pair-store.ts';

const mg = (value: number) => ({ value, unit: 'mg' as const });
function pair(
  previous: string,
  next: string,
  governing: string | null,
  extra: Partial<ContractPair> = {},
): ContractPair {
  return {
    previous,
    next,
    sharedEquipment: ['Mixer 1'],
    area: { value: 1000, unit: 'sqcm' },
    criteria: { health: mg(1), dose: null, ld50: null, arl: mg(2) },
    governing,
    governingActive: governing ? 'Drug X' : null,
    maco: governing ? mg(1) : null,
    sal: governing ? { value: 0.001, unit: 'mg/sqcm' } : null,
    salCapped: false,
    ...extra,
  };
}

const list = [
  pair('Tablet A', 'Tablet B', 'health'),
  pair('Tablet B', 'Tablet A', 'arl', { sharedEquipment: ['Blender', 'Mixer 1'] }),
  pair('Tablet A', 'Syrup C', null),
  pair('Syrup C', 'Tablet A', 'health', { governingActive: 'Paracetamol' }),
];
const pairs = PairStore.from(list);
const keep = (filter: Parameters<typeof filterPairs>[1]) =>
  [...filterPairs(pairs, filter)].map((i) => pairs.pairAt(i));

describe('filterPairs', () => {
  it('keeps everything without a filter', () => {
    expect(keep({})).toEqual(list);
    expect(keep({ text: '   ' })).toEqual(list);
  });

  it('keeps nothing for a product or criterion that does not occur', () => {
    expect(keep({ previous: 'Nothing' })).toEqual([]);
    expect(keep({ governing: 'ld50' })).toEqual([]);
  });

  it('filters by previous and next product', () => {
    expect(keep({ previous: 'Tablet A' }).map((p) => p.next)).toEqual(['Tablet B', 'Syrup C']);
    expect(keep({ previous: 'Tablet A', next: 'Syrup C' })).toHaveLength(1);
  });

  it('filters by governing criterion, none included', () => {
    expect(keep({ governing: 'health' })).toHaveLength(2);
    expect(keep({ governing: 'none' }).map((p) => p.next)).toEqual(['Syrup C']);
  });

  it('searches products, the governing active and shared equipment, whatever the case', () => {
    expect(keep({ text: 'syrup' })).toHaveLength(2);
    expect(keep({ text: 'PARACET' })).toHaveLength(1);
    expect(keep({ text: 'blender' }).map((p) => p.previous)).toEqual(['Tablet B']);
    expect(keep({ text: 'blender', governing: 'health' })).toEqual([]);
  });
});

describe('picker options', () => {
  it('lists product names once, sorted', () => {
    expect(productNames(pairs)).toEqual(['Syrup C', 'Tablet A', 'Tablet B']);
  });

  it('lists governing criteria in criterion order with none last', () => {
    expect(governingKeys(pairs)).toEqual(['health', 'arl', 'none']);
    expect(governingKeys(PairStore.from([]))).toEqual([]);
  });

  it('finds the pair a summary points at', () => {
    expect(pairs.pairAt(pairs.find('Tablet B', 'Tablet A')).governing).toBe('arl');
    expect(pairs.find('Tablet B', 'Syrup C')).toBe(-1);
    expect(pairs.find('Nothing', 'Tablet A')).toBe(-1);
  });
});

describe('PairStore', () => {
  it('gives back every pair as the document had it, limits included', () => {
    const withLimits = list.map((p) => ({
      ...p,
      swabLimit: p.sal ? { value: 0.02, unit: 'mg/swab' as const } : null,
      rinseLimit: null,
    }));
    const store = PairStore.from(withLimits);
    expect(store.length).toBe(4);
    expect(list.map((_p, i) => store.pairAt(i))).toEqual(withLimits);
  });

  it('grows past its first capacity', () => {
    const many = Array.from({ length: 3000 }, (_v, i) =>
      pair(`P${i % 50}`, `N${i}`, i % 3 ? 'health' : null, {
        sharedEquipment: [`E${i % 7}`, `E${(i + 1) % 7}`],
      }),
    );
    const store = PairStore.from(many);
    expect(store.pairAt(2999)).toEqual(many[2999]);
    expect(store.products.names).toHaveLength(50 + 3000);
    expect(store.equipment.names).toHaveLength(7);
  });
});
