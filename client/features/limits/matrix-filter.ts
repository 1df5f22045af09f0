import type { Interner, PairStore } from './pair-store.ts';

export interface MatrixFilter {
  previous?: string | undefined;
  next?: string | undefined;
  /** A criterion key, or 'none' for pairs where no criterion applies. */
  governing?: string | undefined;
  text?: string | undefined;
}

/** Which interned names contain the needle: each name is tested once, not once per pair. */
function matching(interner: Interner, needle: string): Uint8Array {
  const marks = new Uint8Array(interner.names.length);
  interner.names.forEach((name, id) => {
    if (name.toLowerCase().includes(needle)) marks[id] = 1;
  });
  return marks;
}

/** The rows a filter keeps, in the document's order. One pass over typed arrays. */
export function filterPairs(store: PairStore, filter: MatrixFilter): Uint32Array {
  const needle = filter.text?.trim().toLowerCase() ?? '';
  const previous = filter.previous ? store.products.find(filter.previous) : -2;
  const next = filter.next ? store.products.find(filter.next) : -2;
  const governing =
    filter.governing === undefined
      ? -2
      : filter.governing === 'none'
        ? -1
        : store.criterionKeys.indexOf(filter.governing);
  if (
    previous === -1 ||
    next === -1 ||
    (filter.governing && filter.governing !== 'none' && governing === -1)
  )
    return new Uint32Array(0);
  const products = needle ? matching(store.products, needle) : null;
  const actives = needle ? matching(store.actives, needle) : null;
  const equipment = needle ? matching(store.equipment, needle) : null;
  const rows = new Uint32Array(store.length);
  let count = 0;
  for (let i = 0; i < store.length; i++) {
    const p = store.previous[i] ?? 0;
    const n = store.next[i] ?? 0;
    if (previous >= 0 && p !== previous) continue;
    if (next >= 0 && n !== next) continue;
    if (governing !== -2 && store.governing[i] !== governing) continue;
    if (products && actives && equipment) {
      const active = store.governingActive[i] ?? -1;
      let hit = products[p] === 1 || products[n] === 1 || (active >= 0 && actives[active] === 1);
      for (let s = store.sharedStart[i] ?? 0; !hit && s < (store.sharedStart[i + 1] ?? 0); s++)
        hit = equipment[store.sharedItems[s] ?? 0] === 1;
      if (!hit) continue;
    }
    rows[count++] = i;
  }
  return rows.subarray(0, count);
}

/** Every product named in the pairs, sorted for a picker. */
export function productNames(store: PairStore): string[] {
  return [...store.products.names].sort((a, b) => a.localeCompare(b));
}

/** The governing criteria that occur, in the document's criterion order, 'none' last. */
export function governingKeys(store: PairStore): string[] {
  const seen = new Uint8Array(store.criterionKeys.length);
  let hasNone = false;
  for (let i = 0; i < store.length; i++) {
    const g = store.governing[i] ?? -1;
    if (g < 0) hasNone = true;
    else seen[g] = 1;
  }
  const keys = store.criterionKeys.filter((_key, index) => seen[index] === 1);
  return hasNone ? [...keys, 'none'] : keys;
}
