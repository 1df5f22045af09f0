import { endianness } from 'node:os';
import { promisify } from 'node:util';
import { gzip, gunzip } from 'node:zlib';
import { CRITERION_KEYS, FORMULA, PRODUCT } from '#core/limits/compile.ts';
import { contractEquipment, contractProducts } from '#core/limits/contract-output.ts';
import { runMatrix } from '#core/limits/matrix.ts';
import {
  MAC_COLUMN_UNITS,
  type ColumnType,
  type TColumn,
  type TMacColumns,
} from '#core/schemas/mac-matrix.schemas.ts';
import { historyNote } from '#server/entities/entity-store.ts';
import type { MacMatrixState } from './mac-matrix-cache.ts';
import { FloatList, IntList } from './mac-pairs.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

// The columns are the bytes of typed arrays, which the answer says are little-endian.
if (endianness() !== 'LE') throw new Error('The MAC matrix columns need a little-endian host');

function bytesColumn(array: ArrayBufferView, type: ColumnType): TColumn {
  return {
    type,
    base64: Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64'),
  };
}

/** Integers in the narrowest type that holds them all. */
function intColumn(list: IntList): TColumn {
  const values = list.items.subarray(0, list.length);
  let min = 0;
  let max = 0;
  for (const v of values) {
    if (v < min) min = v;
    else if (v > max) max = v;
  }
  // `set` converts natively; `from` would walk the values one by one.
  const narrow = <T extends Uint8Array | Int8Array | Uint16Array | Int16Array>(into: T) => {
    into.set(values);
    return into;
  };
  const n = values.length;
  if (min >= 0 && max < 2 ** 8) return bytesColumn(narrow(new Uint8Array(n)), 'u8');
  if (min >= -(2 ** 7) && max < 2 ** 7) return bytesColumn(narrow(new Int8Array(n)), 'i8');
  if (min >= 0 && max < 2 ** 16) return bytesColumn(narrow(new Uint16Array(n)), 'u16');
  if (min >= -(2 ** 15) && max < 2 ** 15) return bytesColumn(narrow(new Int16Array(n)), 'i16');
  return bytesColumn(values, 'i32');
}

/** Doubles as their own bits; null when every one is NaN (a criterion the policy leaves off). */
function numberColumn(list: FloatList): TColumn | null {
  const values = list.items.subarray(0, list.length);
  return values.every(Number.isNaN) ? null : bytesColumn(values, 'f64');
}

const bits = new Float64Array(1);
const halves = new Uint32Array(bits.buffer);

/**
 * Each distinct list of shared items with its area, kept once: the pairs of a facility whose
 * products run on the same lines share few of them. Found by a hash of the items and the
 * area's bits, and kept in flat typed lists, so a pair allocates nothing.
 */
class SharedSets {
  /** Set s's items are items[start[s] .. start[s + 1]). */
  readonly start = new IntList();
  readonly items = new IntList();
  readonly areas = new FloatList();
  /** The next set of the same hash, or -1. */
  private readonly chain = new IntList();
  private readonly firstOfHash = new Map<number, number>();

  constructor() {
    this.start.push(0);
  }

  indexOf(shared: Int32Array, count: number, area: number): number {
    let h = 0x811c9dc5;
    for (let i = 0; i < count; i++) h = Math.imul(h ^ (shared[i] ?? 0), 0x01000193);
    bits[0] = area;
    h = Math.imul(h ^ (halves[0] ?? 0), 0x01000193);
    h = Math.imul(h ^ (halves[1] ?? 0), 0x01000193);
    const first = this.firstOfHash.get(h) ?? -1;
    for (let set = first; set !== -1; set = this.chain.items[set] ?? -1)
      if (this.same(set, shared, count, area)) return set;
    const set = this.areas.length;
    for (let i = 0; i < count; i++) this.items.push(shared[i] ?? 0);
    this.start.push(this.items.length);
    this.areas.push(area);
    this.chain.push(first);
    this.firstOfHash.set(h, set);
    return set;
  }

  private same(set: number, shared: Int32Array, count: number, area: number): boolean {
    const from = this.start.items[set] ?? 0;
    if ((this.start.items[set + 1] ?? 0) - from !== count) return false;
    if (!Object.is(this.areas.items[set], area)) return false;
    for (let i = 0; i < count; i++) if (this.items.items[from + i] !== shared[i]) return false;
    return true;
  }
}

/**
 * The whole matrix in the columns of ZMacColumns, as JSON text: the same pairs in the same
 * order as the contract document of GET mac-matrix (runMatrix order), each field one typed
 * array. Serialised by hand: the base64 of a typed array is one native call, where
 * JSON.stringify of a million objects formats every double in decimal.
 */
export function macColumnsText(
  state: Pick<MacMatrixState, 'compiled' | 'uncomputable' | 'historyStartsAt'>,
): { text: string; pairs: number } {
  const m = state.compiled();
  const { products, equipment, sampling } = m.input;
  // The criteria the contract document lists for this facility's pairs (contractPair).
  const keys = CRITERION_KEYS.map((key, k) => ({ key, k })).filter(
    ({ k }) => (k !== PRODUCT || m.useProductLimit) && (k !== FORMULA || m.macFormulas),
  );
  // A criterion's index in the engine to its index in `keys`.
  const keyOf = CRITERION_KEYS.map((_key, k) => keys.findIndex((x) => x.k === k));
  const next = new IntList();
  const shared = new IntList();
  const governing = new IntList();
  const governingActive = new IntList();
  const salCapped = new IntList();
  const maco = new FloatList();
  const sal = new FloatList();
  const criteria = keys.map(() => new FloatList());
  const swab = new FloatList();
  const rinse = new FloatList();
  // Every active once, in input order; a pair's governing active by its product's own index.
  const actives: string[] = [];
  const activeIndex = new Map<string, number>();
  const activeOf = products.map((product) =>
    product.actives.map((active) => {
      let a = activeIndex.get(active.id);
      if (a === undefined) activeIndex.set(active.id, (a = actives.push(active.id) - 1));
      return a;
    }),
  );
  const sets = new SharedSets();
  const rowStart = new Array<number>(m.productCount + 1).fill(0);
  const criterionOf = keys.map(({ k }) => k);

  // Once per pair, so no string, closure or array is made here (a set only when it is new).
  const summary = runMatrix(m, (view) => {
    rowStart[view.previous + 1] = (rowStart[view.previous + 1] ?? 0) + 1;
    next.push(view.next);
    shared.push(sets.indexOf(view.shared, view.sharedCount, view.area));
    governing.push(view.governing === -1 ? -1 : (keyOf[view.governing] ?? -1));
    governingActive.push(
      view.governingActive === -1 ? -1 : (activeOf[view.previous]?.[view.governingActive] ?? -1),
    );
    maco.push(view.maco);
    sal.push(view.sal);
    salCapped.push(view.salCapped ? 1 : 0);
    for (let c = 0; c < criterionOf.length; c++)
      criteria[c]!.push(view.criteria[criterionOf[c]!] ?? Number.NaN);
    swab.push(view.swabLimit);
    rinse.push(view.rinseLimit);
  });
  for (let p = 0; p < m.productCount; p++) rowStart[p + 1]! += rowStart[p] ?? 0;

  const columns: TMacColumns['columns'] = {
    next: intColumn(next),
    shared: intColumn(shared),
    governing: intColumn(governing),
    governingActive: intColumn(governingActive),
    maco: numberColumn(maco),
    sal: numberColumn(sal),
    salCapped: intColumn(salCapped),
    criteria: criteria.map(numberColumn),
    ...(sampling.swabArea ? { swabLimit: numberColumn(swab) } : {}),
    ...(sampling.rinseVolume ? { rinseLimit: numberColumn(rinse) } : {}),
  };
  const sharedSets: TMacColumns['sharedSets'] = {
    start: intColumn(sets.start),
    items: intColumn(sets.items),
    area: bytesColumn(sets.areas.items.subarray(0, sets.areas.length), 'f64'),
  };
  // Everything but the columns through JSON.stringify (names are the users' text); the columns
  // by hand, last: base64 needs no escaping, and JSON.stringify would scan every character.
  const head: Omit<TMacColumns, 'columns' | 'sharedSets'> = {
    format: 'columns',
    count: next.length,
    names: {
      products: products.map((p) => p.id),
      equipment: equipment.map((e) => e.id),
      actives,
    },
    criteria: keys.map(({ key }) => key),
    rowStart,
    units: MAC_COLUMN_UNITS,
    products: contractProducts(m, summary) as unknown as TMacColumns['products'],
    equipment: contractEquipment(m, summary) as unknown as TMacColumns['equipment'],
    uncomputable: state.uncomputable,
    ...historyNote([state]),
  };
  const { criteria: criterionColumns, ...single } = columns;
  const fields = Object.entries(single).map(([name, c]) => `"${name}":${columnText(c)}`);
  fields.push(`"criteria":[${criterionColumns.map(columnText).join(',')}]`);
  const setFields = Object.entries(sharedSets).map(([name, c]) => `"${name}":${columnText(c)}`);
  const text = `${JSON.stringify(head).slice(0, -1)},"sharedSets":{${setFields.join(',')}},"columns":{${fields.join(',')}}}`;
  return { text, pairs: head.count };
}

/** A column as JSON, written by hand: its type is one of ours and base64 needs no escaping. */
function columnText(column: TColumn | null): string {
  return column ? `{"type":"${column.type}","base64":"${column.base64}"}` : 'null';
}

/** The columns answer of one state of the facility's data, gzipped, as kept with that state. */
export interface KeptColumns {
  gzip: Buffer;
  /** Its size before compression. */
  bytes: number;
  pairs: number;
}

let builds = 0;

/** How many columns answers have been serialised and compressed in this process (tests, bench). */
export function macColumnsBuilds(): number {
  return builds;
}

/**
 * The columns answer, serialised and gzipped once per state of the facility's data and kept
 * with it in the matrix cache (`derived`): every further request sends the same bytes. A state
 * is keyed by the data's version (mac-matrix-cache.ts), so a change that may move a limit makes
 * a new state and is never answered from the bytes of the old one. Gzip runs off the event
 * loop, in libuv's pool.
 */
export function macColumns(state: MacMatrixState): Promise<KeptColumns> {
  return state.derived('columns', async () => {
    builds += 1;
    const { text, pairs } = macColumnsText(state);
    const bytes = Buffer.byteLength(text);
    return { gzip: await gzipAsync(text), bytes, pairs };
  });
}

/** The kept answer for a client that takes no gzip: inflated again, off the event loop. */
export function inflated(kept: KeptColumns): Promise<Buffer> {
  return gunzipAsync(kept.gzip);
}
