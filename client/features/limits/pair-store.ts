import type { ContractPair } from '#core/limits/contract-output.ts';
import { contractPairOf, type DecodedColumns } from '#core/limits/matrix-columns.ts';

/** Names kept once each: a million pairs name the same thousand products. */
export class Interner {
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();

  of(name: string): number {
    let id = this.index.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(name);
      this.index.set(name, id);
    }
    return id;
  }

  find(name: string): number {
    return this.index.get(name) ?? -1;
  }
}

type Numeric = Float64Array | Uint32Array | Int32Array | Int8Array | Uint8Array;

function grow<T extends Numeric>(array: T, size: number): T {
  if (size <= array.length) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}

const num = (q: { value: number } | null | undefined) => (q ? q.value : Number.NaN);

/**
 * The pairs of a MAC matrix in columns of typed arrays, about 60 bytes a pair instead of a
 * kilobyte of objects, so a 1,000 × 1,000 matrix fits in a browser tab. Numbers are in the
 * contract's output units (MACO mg, area sqcm, SAL mg/sqcm); NaN stands for null.
 */
export class PairStore {
  readonly products = new Interner();
  readonly actives = new Interner();
  readonly equipment = new Interner();
  /** Criterion keys in the document's order, from its first pair. */
  criterionKeys: string[] = [];
  length = 0;
  previous = new Uint32Array(1024);
  next = new Uint32Array(1024);
  governing = new Int8Array(1024);
  governingActive = new Int32Array(1024);
  maco = new Float64Array(1024);
  sal = new Float64Array(1024);
  area = new Float64Array(1024);
  salCapped = new Uint8Array(1024);
  criteria = new Float64Array(1024 * 4);
  swabLimit: Float64Array | null = null;
  rinseLimit: Float64Array | null = null;
  sharedStart = new Uint32Array(1025);
  sharedItems = new Uint32Array(4096);

  static from(pairs: readonly ContractPair[]): PairStore {
    const store = new PairStore();
    for (const pair of pairs) store.add(pair);
    return store;
  }

  /** The store of GET mac-matrix?format=columns: its columns copied in, no pair objects made. */
  static fromColumns(d: DecodedColumns): PairStore {
    const store = new PairStore();
    const { names, criteria } = d.answer;
    for (const name of names.products) store.products.of(name);
    for (const name of names.actives) store.actives.of(name);
    for (const name of names.equipment) store.equipment.of(name);
    store.criterionKeys = [...criteria];
    const count = d.count;
    const k = criteria.length;
    store.length = count;
    store.previous = d.previous;
    store.next = new Uint32Array(count);
    store.next.set(d.next);
    store.governing = new Int8Array(count);
    store.governing.set(d.governing);
    store.governingActive = new Int32Array(count);
    store.governingActive.set(d.governingActive);
    store.maco = Float64Array.from(d.maco);
    store.sal = Float64Array.from(d.sal);
    store.salCapped = new Uint8Array(count);
    store.salCapped.set(d.salCapped);
    store.swabLimit = d.swabLimit && Float64Array.from(d.swabLimit);
    store.rinseLimit = d.rinseLimit && Float64Array.from(d.rinseLimit);
    store.area = new Float64Array(count);
    store.criteria = new Float64Array(count * k);
    store.sharedStart = new Uint32Array(count + 1);
    let items = 0;
    for (let i = 0; i < count; i++) {
      const set = d.shared[i] ?? 0;
      items += (d.setStart[set + 1] ?? 0) - (d.setStart[set] ?? 0);
    }
    store.sharedItems = new Uint32Array(items);
    let at = 0;
    for (let i = 0; i < count; i++) {
      const set = d.shared[i] ?? 0;
      store.area[i] = d.setArea[set] ?? Number.NaN;
      for (let c = 0; c < k; c++) store.criteria[i * k + c] = d.criteria[c]?.[i] ?? Number.NaN;
      for (let s = d.setStart[set] ?? 0; s < (d.setStart[set + 1] ?? 0); s++)
        store.sharedItems[at++] = d.setItems[s] ?? 0;
      store.sharedStart[i + 1] = at;
    }
    return store;
  }

  add(pair: ContractPair): void {
    const i = this.length;
    if (i === 0) this.criterionKeys = Object.keys(pair.criteria);
    const k = this.criterionKeys.length;
    const size = i + 1;
    this.previous = grow(this.previous, size);
    this.next = grow(this.next, size);
    this.governing = grow(this.governing, size);
    this.governingActive = grow(this.governingActive, size);
    this.maco = grow(this.maco, size);
    this.sal = grow(this.sal, size);
    this.area = grow(this.area, size);
    this.salCapped = grow(this.salCapped, size);
    this.criteria = grow(this.criteria, size * k);
    this.sharedStart = grow(this.sharedStart, size + 1);

    this.previous[i] = this.products.of(pair.previous);
    this.next[i] = this.products.of(pair.next);
    this.governing[i] = pair.governing === null ? -1 : this.criterionKeys.indexOf(pair.governing);
    this.governingActive[i] =
      pair.governingActive === null ? -1 : this.actives.of(pair.governingActive);
    this.maco[i] = num(pair.maco);
    this.sal[i] = num(pair.sal);
    this.area[i] = pair.area.value;
    this.salCapped[i] = pair.salCapped ? 1 : 0;
    for (let c = 0; c < k; c++)
      this.criteria[i * k + c] = num(pair.criteria[this.criterionKeys[c] ?? '']);
    if (pair.swabLimit !== undefined) {
      this.swabLimit = grow(this.swabLimit ?? new Float64Array(1024), size);
      this.swabLimit[i] = num(pair.swabLimit);
    }
    if (pair.rinseLimit !== undefined) {
      this.rinseLimit = grow(this.rinseLimit ?? new Float64Array(1024), size);
      this.rinseLimit[i] = num(pair.rinseLimit);
    }
    const start = this.sharedStart[i] ?? 0;
    this.sharedItems = grow(this.sharedItems, start + pair.sharedEquipment.length);
    pair.sharedEquipment.forEach((item, n) => {
      this.sharedItems[start + n] = this.equipment.of(item);
    });
    this.sharedStart[i + 1] = start + pair.sharedEquipment.length;
    this.length = size;
  }

  productOf(id: number): string {
    return this.products.names[id] ?? '';
  }

  sharedCount(i: number): number {
    return (this.sharedStart[i + 1] ?? 0) - (this.sharedStart[i] ?? 0);
  }

  sharedNames(i: number): string[] {
    const names: string[] = [];
    for (let n = this.sharedStart[i] ?? 0; n < (this.sharedStart[i + 1] ?? 0); n++)
      names.push(this.equipment.names[this.sharedItems[n] ?? 0] ?? '');
    return names;
  }

  governingKey(i: number): string | null {
    const g = this.governing[i] ?? -1;
    return g < 0 ? null : (this.criterionKeys[g] ?? null);
  }

  governingActiveName(i: number): string | null {
    const a = this.governingActive[i] ?? -1;
    return a < 0 ? null : (this.actives.names[a] ?? null);
  }

  /** The row as the contract document has it, for the explanation of one pair. */
  pairAt(i: number): ContractPair {
    const k = this.criterionKeys.length;
    return contractPairOf({
      previous: this.productOf(this.previous[i] ?? 0),
      next: this.productOf(this.next[i] ?? 0),
      sharedEquipment: this.sharedNames(i),
      area: this.area[i] ?? 0,
      criteria: this.criterionKeys,
      criterion: (c) => this.criteria[i * k + c],
      governing: this.governingKey(i),
      governingActive: this.governingActiveName(i),
      maco: this.maco[i],
      sal: this.sal[i],
      salCapped: this.salCapped[i] === 1,
      swabLimit: this.swabLimit?.[i],
      rinseLimit: this.rinseLimit?.[i],
      sampled: { swab: this.swabLimit !== null, rinse: this.rinseLimit !== null },
    });
  }

  /** The row of a previous → next pair, or -1. */
  find(previous: string, next: string): number {
    const p = this.products.find(previous);
    const n = this.products.find(next);
    if (p < 0 || n < 0) return -1;
    for (let i = 0; i < this.length; i++)
      if (this.previous[i] === p && this.next[i] === n) return i;
    return -1;
  }
}
