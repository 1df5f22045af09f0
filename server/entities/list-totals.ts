import { READ_ONLY, type Db } from '../db/db.ts';
import { LruMap } from '../util/lru-map.ts';
import type { PageEnd } from './list-keyset.ts';

/*
 * The pages and totals of unfiltered lists of a facility's records, each kept with the
 * facility's list version it was read at (migration 20261128150500_list_versions.sql): the
 * version moves with every committed write to any of the facility's rows, and the page's
 * statement reads it, so a page or total is read again only when the version moved.
 */

interface Versioned {
  /** facility_list_versions.list_version as text; '0' before the facility's first write. */
  version: string;
}

export interface CountedTotal extends Versioned {
  total: number;
}

export interface CachedPage<T> extends Versioned {
  page: T;
  /** Where a full page ends in its sort, for the next page to start after (list-keyset.ts). */
  end?: PageEnd;
}

export interface ListCache {
  /** By table, facility and archive state. */
  totals: Map<string, CountedTotal>;
  /** By list, sort and page window; least recently used first out. */
  pages: LruMap<CachedPage<unknown>>;
  /** By facility: the list version last read, with the Db's changeCount it was read at. */
  versions: Map<number, { version: string; at: number }>;
}

/** Past this many lists or pages a cache drops its oldest rather than grow without bound. */
const MAX_TOTALS = 10_000;
const MAX_PAGES = 500;
/** Pages of more rows than this are read every time (they are not what a screen asks for). */
export const MAX_PAGE_ROWS = 100;

const caches = new WeakMap<Db, ListCache>();

/** The facility's list version, as a scalar subquery on the facility id in `$1`. */
export const LIST_VERSION_SQL = `coalesce((select list_version from facility_list_versions where facility_id = $1), 0)`;

/**
 * The list cache of one database, or undefined for a Db joined to an open transaction: its own
 * uncommitted writes are read before their version moves (at commit), so what it reads must
 * neither be kept nor come from what others read.
 */
export function listCache(db: Db): ListCache | undefined {
  if (db.joinsTransaction) return undefined;
  let cache = caches.get(db);
  if (!cache) {
    cache = { totals: new Map(), pages: new LruMap(MAX_PAGES), versions: new Map() };
    caches.set(db, cache);
  }
  if (cache.totals.size >= MAX_TOTALS) cache.totals.clear();
  if (cache.versions.size >= MAX_TOTALS) cache.versions.clear();
  return cache;
}

/**
 * The facility's list version now, as list pages keep it. Read again only once the Db's
 * changeCount moved: on PGlite once a statement has run since (each read waits for every
 * statement queued before it on the one connection, and at 50 requests at once they were most
 * of its work); on a PostgreSQL server also once the server announced a new list version,
 * whoever wrote it (an unchanged page then costs no database read at all).
 */
export async function listVersion(db: Db, facilityId: number): Promise<string> {
  const versions = listCache(db)?.versions;
  const at = db.changeCount?.();
  const known = versions?.get(facilityId);
  if (known && known.at === at) return known.version;
  const [row] = await db.query<{ version: string }>(
    `${READ_ONLY}select ${LIST_VERSION_SQL}::text as version`,
    [facilityId],
  );
  const version = row?.version ?? '0';
  noteListVersion(db, facilityId, version, at);
  return version;
}

/**
 * Keeps a list version a statement read, begun at changeCount `at`: only when nothing ran
 * meanwhile (then it is the version as of `at`), and never an older one than is known at that
 * count (a write by another instance commits between two reads before its notice arrives; a
 * page read after it must not be answered from what was kept before it).
 */
export function noteListVersion(
  db: Db,
  facilityId: number,
  version: string,
  at: number | undefined,
): void {
  const versions = listCache(db)?.versions;
  if (!versions || at === undefined || db.changeCount?.() !== at) return;
  const known = versions.get(facilityId);
  if (known && known.at === at && BigInt(known.version) > BigInt(version)) return;
  versions.set(facilityId, { version, at });
}
