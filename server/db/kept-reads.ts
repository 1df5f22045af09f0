import type { Queryable } from './db.ts';

/*
 * Reads kept for one computation or one write, by the queryable they go through (issue 34): a
 * change evaluation's side reads the facility's products five times through its functions, a
 * results entry the study its recompute judges with. Whoever opens the keeping knows that
 * nothing it keeps is written while it lasts (a side of an evaluation writes nothing; a write of
 * a run's children writes neither its study nor the facility's records); every reader through
 * that queryable gets what was kept, and none may change it. Elsewhere every read is fresh.
 */
const kept = new WeakMap<Queryable, Map<string, unknown>>();

/** A view of `q` for one computation that writes nothing through it: its reads are kept. */
export function keepingView(q: Queryable): Queryable {
  const view: Queryable = {
    query: (sql, params) => q.query(sql, params),
    exec: (sql) => q.exec(sql),
  };
  kept.set(view, new Map());
  return view;
}

/** Runs `fn` with the reads through `tx` kept for its length. */
export async function keepingReads<T>(tx: Queryable, fn: () => Promise<T>): Promise<T> {
  kept.set(tx, new Map());
  try {
    return await fn();
  } finally {
    kept.delete(tx);
  }
}

/** The kept reads `name` of `q`, made by `make` when first asked; undefined where none are kept. */
export function keptReads<T>(q: Queryable, name: string, make: () => T): T | undefined {
  const stores = kept.get(q);
  if (!stores) return undefined;
  if (!stores.has(name)) stores.set(name, make());
  return stores.get(name) as T;
}
