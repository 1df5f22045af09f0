/**
 * Reads of records as they were at a past moment, from the versions the database keeps
 * (record_versions, server/records/README.md). Each kept row_data is turned back into a row of
 * the record's own table type (jsonb_populate_record), so the same select list, filters and
 * toRecord serve the live read and the read as of a moment, and give the same values.
 */

import type { Queryable } from '../db/db.ts';

export interface AsOfOptions {
  /** ISO 8601 date-time: answer with the data as it was then. */
  asOf?: string | undefined;
}

/**
 * A FROM source standing for `table` as of `$asOfParam` in the facility `$facilityParam`: the
 * last kept version of each record recorded at or before that moment, under the table's name
 * so that the caller's column references stay as they are. With `recordParam`, of one record.
 * A record that existed then but whose history begins later (made before versions were kept,
 * changed after the moment) comes as its earliest kept version, so that no report or
 * computation as of a moment leaves it out (21 CFR 11.10(b): complete copies of records);
 * `beforeHistory: false` leaves such records out, for a reader that says so on its own.
 */
export function tableAsOf(
  table: string,
  facilityParam: number,
  asOfParam: number,
  recordParam?: number,
  owner: 'facility_id' | 'plan_id' = 'facility_id',
  options: { beforeHistory?: boolean } = {},
): string {
  const oneRecord = recordParam === undefined ? '' : `and record_id = $${recordParam}`;
  const owned = ownedBy(owner, facilityParam);
  const early =
    options.beforeHistory === false
      ? ''
      : `union all select kept.* ${earliestBackfilled(table, owned, asOfParam, oneRecord)}`;
  // Materialized: the planner cannot count the rows of jsonb_populate_record (it guesses one),
  // so a join of several tables as of a moment became nested loops that rebuilt the inner
  // table's rows for every outer row (an annual summary's results, 12 s for 870 rows). Built
  // once, the rows are read again from memory.
  return `(with kept_rows as materialized (${lastKeptBy(table, owned, asOfParam, oneRecord)} ${early})
    select * from kept_rows) as ${table}`;
}

/** Versions keep facility_id of their own; a plan's records are found by the plan_id they held. */
function ownedBy(owner: 'facility_id' | 'plan_id', facilityParam: number): string {
  return owner === 'facility_id'
    ? `facility_id = $${facilityParam}`
    : `(row_data->>'plan_id')::int = $${facilityParam}`;
}

/** The last kept version of each record recorded at or before the moment, as table rows. */
function lastKeptBy(table: string, owned: string, asOfParam: number, oneRecord = ''): string {
  return `select kept.* from (
      select distinct on (record_id) row_data from record_versions
       where table_name = '${table}' and ${owned} ${oneRecord}
         and recorded_at <= $${asOfParam}::timestamptz
       order by record_id, recorded_at desc, id desc) last
      cross join lateral jsonb_populate_record(null::${table}, last.row_data) kept`;
}

/** `history_starts_at` as the API writes moments (UTC, microseconds). */
export const HISTORY_STARTS_AT = `to_char(history_starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as history_starts`;

/**
 * As tableAsOf, for lists: besides the records as they were at `$asOfParam`, those that existed
 * then but whose history begins later (made before versions were kept, and changed after the
 * moment) come as their earliest kept version, with the moment it was kept as
 * `history_starts_at` (null for the others). A list as of a moment never leaves out a record
 * that existed then (21 CFR 11.10(b): accurate and complete copies of records).
 */
export function tableAsOfFromEarliest(
  table: string,
  facilityParam: number,
  asOfParam: number,
  owner: 'facility_id' | 'plan_id' = 'facility_id',
): string {
  const owned = ownedBy(owner, facilityParam);
  return `(with kept_rows as materialized (
      select kept_then.*, null::timestamptz as history_starts_at
        from (${lastKeptBy(table, owned, asOfParam)}) kept_then
      union all
      select kept.*, early.recorded_at ${earliestBackfilled(table, owned, asOfParam)})
    select * from kept_rows) as ${table}`;
}

/**
 * FROM and WHERE of the records of `table` that existed at `$asOfParam` but have no version
 * kept by then: their earliest version (`kept`, kept at `early.recorded_at`), when that is a
 * backfilled one, kept at the record's last change, as in tableBeforeHistory.
 */
function earliestBackfilled(table: string, owned: string, asOfParam: number, oneRecord = '') {
  const asOf = `$${asOfParam}::timestamptz`;
  return `from (
        select v.row_data, v.recorded_at from record_versions v
         where table_name = '${table}' and ${owned} ${oneRecord} and recorded_at > ${asOf}
           and not exists (select 1 from record_versions e
                            where e.table_name = v.table_name and e.record_id = v.record_id
                              and e.facility_id is not distinct from v.facility_id
                              and e.recorded_at <= ${asOf})) early
        cross join lateral jsonb_populate_record(null::${table}, early.row_data) kept
       -- Read from the kept row's JSON, not its columns: a table without created_at and
       -- updated_at (a qualification task's) has no version known as backfilled, and no row here.
       where (early.row_data->>'created_at')::timestamptz <= ${asOf}
         and early.recorded_at = (early.row_data->>'updated_at')::timestamptz`;
}

/**
 * A FROM source standing for `table`'s record `$2` of owner `$1` before its history began: its
 * earliest kept version, when that is a backfilled one and the record existed at `$3` (created
 * at or before it). Records made before versions were kept have one kept at their last
 * change (keep_record_versions' backfill), which is the earliest state known of them; the
 * moment that version was kept comes as `history_starts_at`.
 */
export function tableBeforeHistory(
  table: string,
  owner: 'facility_id' | 'plan_id' = 'facility_id',
): string {
  const ownedBy = owner === 'facility_id' ? 'facility_id = $1' : `(row_data->>'plan_id')::int = $1`;
  return `(select kept.*, first.recorded_at as history_starts_at from (
      select row_data, recorded_at from record_versions
       where table_name = '${table}' and ${ownedBy} and record_id = $2
       order by recorded_at, id limit 1) first
      cross join lateral jsonb_populate_record(null::${table}, first.row_data) kept
     where kept.created_at <= $3::timestamptz
       -- A backfilled version, kept at the record's last change; a version kept as a change
       -- commits is later than its updated_at, and before it the record was not yet committed.
       and first.recorded_at = kept.updated_at) as ${table}`;
}

/**
 * The latest moment from which a record of the facility that existed at `asOf` is first kept,
 * when its history begins after `asOf` (made before versions were kept, changed after the
 * moment: its earliest kept version is the backfilled one, as in earliestBackfilled); undefined
 * when every record that existed then has a version kept by then. Over every table, for what is
 * built as of a moment from many of them (a report: 21 CFR 11.10(b), complete and accurate
 * copies of records, say what a copy cannot show as it was).
 */
export async function facilityHistoryStart(
  q: Queryable,
  facilityId: number,
  asOf: string,
): Promise<string | undefined> {
  const [row] = await q.query<{ starts: string | null }>(
    `select to_char(max(v.recorded_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as starts
       from record_versions v
      where v.facility_id = $1 and v.recorded_at > $2::timestamptz
        and (v.row_data->>'created_at')::timestamptz <= $2::timestamptz
        and v.recorded_at = (v.row_data->>'updated_at')::timestamptz
        and not exists (select 1 from record_versions e
                         where e.table_name = v.table_name and e.facility_id = v.facility_id
                           and e.record_id = v.record_id and e.recorded_at <= $2::timestamptz)`,
    [facilityId, asOf],
  );
  return row?.starts ?? undefined;
}
