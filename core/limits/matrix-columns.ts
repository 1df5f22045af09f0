import type { ColumnType, TColumn, TMacColumns } from '../schemas/mac-matrix.schemas.ts';
import type {
  ContractDocument,
  ContractEquipment,
  ContractPair,
  ContractProduct,
} from './contract-output.ts';

type TypedArray =
  Float64Array | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array;

const ARRAYS: Record<ColumnType, new (buffer: ArrayBuffer) => TypedArray> = {
  f64: Float64Array,
  i8: Int8Array,
  u8: Uint8Array,
  i16: Int16Array,
  u16: Uint16Array,
  i32: Int32Array,
  u32: Uint32Array,
};

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const SEXTET = new Uint8Array(128);
for (let i = 0; i < ALPHABET.length; i++) SEXTET[ALPHABET.charCodeAt(i)] = i;

/** Base64 to bytes in a buffer of their own (so any typed array can view it aligned). */
export function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const n =
      ((SEXTET[text.charCodeAt(i)] ?? 0) << 18) |
      ((SEXTET[text.charCodeAt(i + 1)] ?? 0) << 12) |
      ((SEXTET[text.charCodeAt(i + 2)] ?? 0) << 6) |
      (SEXTET[text.charCodeAt(i + 3)] ?? 0);
    if (o < bytes.length) bytes[o++] = n >>> 16;
    if (o < bytes.length) bytes[o++] = (n >>> 8) & 255;
    if (o < bytes.length) bytes[o++] = n & 255;
  }
  return bytes;
}

/** A column's values; a null number column is `count` NaNs (null for every pair). */
export function columnValues(column: TColumn | null | undefined, count?: number): TypedArray {
  if (!column) return new Float64Array(count ?? 0).fill(Number.NaN);
  const values = new ARRAYS[column.type](base64Bytes(column.base64).buffer);
  if (count !== undefined && values.length !== count)
    throw new Error(`a column of ${values.length} values, not ${count}`);
  return values;
}

/** The columns answer read back into arrays, one entry per pair. */
export interface DecodedColumns {
  answer: TMacColumns;
  count: number;
  previous: Uint32Array<ArrayBuffer>;
  next: TypedArray;
  shared: TypedArray;
  governing: TypedArray;
  governingActive: TypedArray;
  maco: TypedArray;
  sal: TypedArray;
  salCapped: TypedArray;
  criteria: TypedArray[];
  swabLimit: TypedArray | null;
  rinseLimit: TypedArray | null;
  /** The distinct lists of shared items: set s is setItems[setStart[s] .. setStart[s + 1]). */
  setStart: TypedArray;
  setItems: TypedArray;
  setArea: TypedArray;
}

export function decodeColumns(answer: TMacColumns): DecodedColumns {
  const { count, columns } = answer;
  const previous = new Uint32Array(count);
  answer.rowStart.forEach((start, p) => previous.fill(p, start, answer.rowStart[p + 1] ?? start));
  return {
    answer,
    count,
    previous,
    next: columnValues(columns.next, count),
    shared: columnValues(columns.shared, count),
    governing: columnValues(columns.governing, count),
    governingActive: columnValues(columns.governingActive, count),
    maco: columnValues(columns.maco, count),
    sal: columnValues(columns.sal, count),
    salCapped: columnValues(columns.salCapped, count),
    criteria: columns.criteria.map((c) => columnValues(c, count)),
    swabLimit: columns.swabLimit === undefined ? null : columnValues(columns.swabLimit, count),
    rinseLimit: columns.rinseLimit === undefined ? null : columnValues(columns.rinseLimit, count),
    setStart: columnValues(answer.sharedSets.start),
    setItems: columnValues(answer.sharedSets.items),
    setArea: columnValues(answer.sharedSets.area),
  };
}

const quantity = <U extends string>(value: number | undefined, unit: U) =>
  value === undefined || Number.isNaN(value) ? null : { value, unit };

/** One pair's fields, numbers with NaN for null; a sample limit absent when not sampled. */
export interface PairRow {
  previous: string;
  next: string;
  sharedEquipment: string[];
  area: number;
  /** Criterion keys and their values in the document's order. */
  criteria: readonly string[];
  criterion: (c: number) => number | undefined;
  governing: string | null;
  governingActive: string | null;
  maco: number | undefined;
  sal: number | undefined;
  salCapped: boolean;
  swabLimit?: number | undefined;
  rinseLimit?: number | undefined;
  sampled: { swab: boolean; rinse: boolean };
}

/** A pair exactly as the contract document writes it, from its fields (any store of pairs). */
export function contractPairOf(row: PairRow): ContractPair {
  const pair: ContractPair = {
    previous: row.previous,
    next: row.next,
    sharedEquipment: row.sharedEquipment,
    // The contract writes the area as it is (a NaN goes out as null, and comes back as NaN).
    area: { value: row.area, unit: 'sqcm' },
    criteria: Object.fromEntries(
      row.criteria.map((key, c) => [key, quantity(row.criterion(c), 'mg' as const)]),
    ),
    governing: row.governing,
    governingActive: row.governingActive,
    maco: quantity(row.maco, 'mg'),
    sal: quantity(row.sal, 'mg/sqcm'),
    salCapped: row.salCapped,
  };
  if (row.sampled.swab) pair.swabLimit = quantity(row.swabLimit, 'mg/swab');
  if (row.sampled.rinse) pair.rinseLimit = quantity(row.rinseLimit, 'mg/ml');
  return pair;
}

/** Pair `i` exactly as the contract document writes it. */
export function columnsPair(d: DecodedColumns, i: number): ContractPair {
  const { names, criteria } = d.answer;
  const set = d.shared[i] ?? 0;
  const sharedEquipment: string[] = [];
  for (let s = d.setStart[set] ?? 0; s < (d.setStart[set + 1] ?? 0); s++)
    sharedEquipment.push(names.equipment[d.setItems[s] ?? 0] ?? '');
  const governing = d.governing[i] ?? -1;
  const active = d.governingActive[i] ?? -1;
  return contractPairOf({
    previous: names.products[d.previous[i] ?? 0] ?? '',
    next: names.products[d.next[i] ?? 0] ?? '',
    sharedEquipment,
    area: d.setArea[set] ?? Number.NaN,
    criteria,
    criterion: (c) => d.criteria[c]?.[i],
    governing: governing < 0 ? null : (criteria[governing] ?? null),
    governingActive: active < 0 ? null : (names.actives[active] ?? null),
    maco: d.maco[i],
    sal: d.sal[i],
    salCapped: d.salCapped[i] === 1,
    swabLimit: d.swabLimit?.[i],
    rinseLimit: d.rinseLimit?.[i],
    sampled: { swab: d.swabLimit !== null, rinse: d.rinseLimit !== null },
  });
}

/** The whole contract document (with what the route adds) from the columns answer. */
export function columnsDocument(answer: TMacColumns): Required<ContractDocument> & {
  uncomputable: TMacColumns['uncomputable'];
} {
  const d = decodeColumns(answer);
  const pairs: ContractPair[] = [];
  for (let i = 0; i < d.count; i++) pairs.push(columnsPair(d, i));
  return {
    pairs,
    products: answer.products as unknown as ContractProduct[],
    equipment: answer.equipment as unknown as ContractEquipment[],
    uncomputable: answer.uncomputable,
    ...(answer.historyStartsAt === undefined ? {} : { historyStartsAt: answer.historyStartsAt }),
  };
}
