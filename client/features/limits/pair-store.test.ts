import { describe, expect, it } from 'vitest';
import type { ContractPair } from '#core/limits/contract-output.ts';
import { decodeColumns } from '#core/limits/matrix-columns.ts';
import {
  MAC_COLUMN_UNITS,
  type TColumn,
  type TMacColumns,
} from '#core/schemas/mac-matrix.schemas.ts';
import { PairStore } from './pair-store.ts';

/** A typed array's bytes in base64, as the server sends a column. */
function column(values: Float64Array | Uint8Array | Int8Array | Uint16Array): TColumn {
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const type =
    values instanceof Float64Array
      ? 'f64'
      : values instanceof Int8Array
        ? 'i8'
        : values instanceof Uint16Array
          ? 'u16'
          : 'u8';
  return { type, base64: btoa(String.fromCharCode(...bytes)) };
}

// Three pairs of two lines; the third has no criterion at all (every number null).
const pairs: ContractPair[] = [
  {
    previous: 'Tab {A}',
    next: 'Syrup "B"',
    sharedEquipment: ['Mixer', 'Dryer'],
    area: { value: 1234.5, unit: 'sqcm' },
    criteria: { health: { value: 0.1 + 0.2, unit: 'mg' }, dose: null },
    governing: 'health',
    governingActive: 'Drug X',
    maco: { value: 0.1 + 0.2, unit: 'mg' },
    sal: { value: (0.1 + 0.2) / 1234.5, unit: 'mg/sqcm' },
    salCapped: false,
    swabLimit: { value: 5e-324, unit: 'mg/swab' },
  },
  {
    previous: 'Syrup "B"',
    next: 'Tab {A}',
    sharedEquipment: ['Mixer', 'Dryer'],
    area: { value: 1234.5, unit: 'sqcm' },
    criteria: { health: { value: 7, unit: 'mg' }, dose: { value: 1 / 3, unit: 'mg' } },
    governing: 'dose',
    governingActive: 'Drug Y',
    maco: { value: 1 / 3, unit: 'mg' },
    sal: { value: 10, unit: 'mg/sqcm' },
    salCapped: true,
    swabLimit: { value: 250, unit: 'mg/swab' },
  },
  {
    previous: 'Syrup "B"',
    next: 'Cream',
    sharedEquipment: ['Dryer'],
    area: { value: 99, unit: 'sqcm' },
    criteria: { health: null, dose: null },
    governing: null,
    governingActive: null,
    maco: null,
    sal: null,
    salCapped: false,
    swabLimit: null,
  },
];

const NaN_ = Number.NaN;
const answer: TMacColumns = {
  format: 'columns',
  count: 3,
  names: {
    products: ['Tab {A}', 'Syrup "B"', 'Cream'],
    equipment: ['Mixer', 'Dryer'],
    actives: ['Drug X', 'Drug Y'],
  },
  criteria: ['health', 'dose'],
  rowStart: [0, 1, 3, 3],
  sharedSets: {
    start: column(Uint8Array.of(0, 2, 3)),
    items: column(Uint8Array.of(0, 1, 1)),
    area: column(Float64Array.of(1234.5, 99)),
  },
  columns: {
    next: column(Uint8Array.of(1, 0, 2)),
    shared: column(Uint8Array.of(0, 0, 1)),
    governing: column(Int8Array.of(0, 1, -1)),
    governingActive: column(Int8Array.of(0, 1, -1)),
    maco: column(Float64Array.of(0.1 + 0.2, 1 / 3, NaN_)),
    sal: column(Float64Array.of((0.1 + 0.2) / 1234.5, 10, NaN_)),
    salCapped: column(Uint8Array.of(0, 1, 0)),
    criteria: [
      column(Float64Array.of(0.1 + 0.2, 7, NaN_)),
      column(Float64Array.of(NaN_, 1 / 3, NaN_)),
    ],
    swabLimit: column(Float64Array.of(5e-324, 250, NaN_)),
  },
  units: MAC_COLUMN_UNITS,
  products: [],
  equipment: [],
  uncomputable: [],
};

describe('PairStore from the columns answer', () => {
  it('holds exactly the pairs the contract document lists', () => {
    const store = PairStore.fromColumns(decodeColumns(answer));
    expect(store.length).toBe(3);
    expect([0, 1, 2].map((i) => store.pairAt(i))).toEqual(pairs);
    expect(store.find('Syrup "B"', 'Cream')).toBe(2);
    expect(store.sharedNames(0)).toEqual(['Mixer', 'Dryer']);
    expect(store.rinseLimit).toBeNull();
  });

  it('is the same store as one built pair by pair', () => {
    const columns = PairStore.fromColumns(decodeColumns(answer));
    const added = PairStore.from(pairs);
    for (let i = 0; i < 3; i++) {
      expect(columns.pairAt(i)).toEqual(added.pairAt(i));
      expect(columns.governingKey(i)).toBe(added.governingKey(i));
      expect(columns.sharedCount(i)).toBe(added.sharedCount(i));
    }
  });
});
