import type { Db } from '../db/db.ts';

/*
 * The total of an unfiltered list of a facility's records, kept with the facility's list version
 * it was counted at (migration 20261128150500_list_versions.sql): the page's statement reads the
 * version and counts again only when it moved, so a page's cost does not grow with the facility.
 */

export interface CountedTotal {
  /** facility_list_versions.list_version as text; '0' before the facility's first row. */
  version: string;
  total: number;
}

/** Past this many lists the cache starts over rather than grow without bound. */
const MAX_LISTS = 10_000;
const caches = new WeakMap<Db, Map<string, CountedTotal>>();

/** The facility's list version, as a scalar subquery on the facility id in `$1`. */
export const LIST_VERSION_SQL = `coalesce((select list_version from facility_list_versions where facility_id = $1), 0)`;

/**
 * The totals of one database's lists, or undefined for a Db joined to an open transaction: its
 * own uncommitted rows are counted before their version moves (at commit), so a count it reads
 * must neither be kept nor come from what others counted.
 */
export function listTotals(db: Db): Map<string, CountedTotal> | undefined {
  if (db.joinsTransaction) return undefined;
  let totals = caches.get(db);
  if (!totals) caches.set(db, (totals = new Map()));
  if (totals.size >= MAX_LISTS) totals.clear();
  return totals;
}
