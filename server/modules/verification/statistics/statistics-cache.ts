import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { Db } from '#server/db/db.ts';
import { listVersion } from '#server/entities/list-totals.ts';
import { LruMap } from '#server/util/lru-map.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * Every table the statistics answer is read from (statistics-points.ts, the facility's
 * verification settings): a committed write to any of them moves the facility's list version
 * (migration 20261221203001_statistics_list_version.sql; statistics-cache.test.ts checks each
 * has the trigger).
 */
export const STATISTICS_TABLES = [
  'sample_results',
  'microbial_results',
  'study_runs',
  'studies',
  'sampling_locations',
  'equipment',
  'productions',
  'historical_study_results',
  'historical_studies',
  'facility_rules',
] as const;

/**
 * One answer as sent, gzipped: a third of its text at 5,000 results, and what every browser
 * takes (`inflated` for a client that does not).
 */
export interface KeptStatistics {
  gzip: Buffer;
}

interface Entry {
  version: string;
  kept: Promise<KeptStatistics>;
}

/** A few dozen groups' answers, about 50 kB each at 5,000 results. */
const MAX_ANSWERS = 32;

const caches = new WeakMap<Db, LruMap<Entry>>();
let builds = 0;

/** How many statistics answers this process has computed and serialised (tests). */
export function statisticsBuilds(): number {
  return builds;
}

/**
 * The answer of one group (`key`: the facility's query, normalised) as the facility's data
 * stands: computed, serialised and gzipped once per state of the data, kept with it, so that
 * reading a chart again costs what reading the version costs (issue 34: the censored-data fit,
 * the columns and the JSON of 5,000 points were most of a read). The version is read first and
 * the data after it, so an answer is never older than the version it is kept under, and a write
 * to any of STATISTICS_TABLES moves the version at its commit. Another server instance keeps
 * its own answers under the same versions.
 */
export async function keptStatistics(
  db: Db,
  facilityId: number,
  key: string,
  compute: () => Promise<string>,
): Promise<KeptStatistics> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new LruMap<Entry>(MAX_ANSWERS)));
  const version = await listVersion(db, facilityId);
  const cacheKey = `${facilityId}\u0000${key}`;
  const found = cache.get(cacheKey);
  if (found?.version === version) return found.kept;
  const kept = compute().then(async (json) => {
    builds += 1;
    // Off the event loop, in libuv's pool.
    return { gzip: await gzipAsync(json) };
  });
  const entry = { version, kept };
  cache.set(cacheKey, entry);
  // A failed read (a key the facility does not have: 404) is not kept.
  kept.catch(() => {
    if (cache.get(cacheKey) === entry) cache.delete(cacheKey);
  });
  return kept;
}

/** The kept answer for a client that takes no gzip: inflated again, off the event loop. */
export function inflated(kept: KeptStatistics): Promise<Buffer> {
  return gunzipAsync(kept.gzip);
}
