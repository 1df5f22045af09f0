/**
 * Reads of records as they were at a past moment, from the versions the database keeps
 * (record_versions, server/records/README.md). Each kept row_data is turned back into a row of
 * the record's own table type (jsonb_populate_record), so the same select list, filters and
 * toRecord serve the live read and the read as of a moment, and give the same values.
 */

export interface AsOfOptions {
  /** ISO 8601 date-time: answer with the data as it was then. */
  asOf?: string | undefined;
}

/**
 * A FROM source standing for `table` as of `$asOfParam` in the facility `$facilityParam`: the
 * last kept version of each record recorded at or before that moment, under the table's name
 * so that the caller's column references stay as they are. With `recordParam`, of one record.
 */
export function tableAsOf(
  table: string,
  facilityParam: number,
  asOfParam: number,
  recordParam?: number,
): string {
  const oneRecord = recordParam === undefined ? '' : `and record_id = $${recordParam}`;
  return `(select kept.* from (
      select distinct on (record_id) row_data from record_versions
       where table_name = '${table}' and facility_id = $${facilityParam} ${oneRecord}
         and recorded_at <= $${asOfParam}::timestamptz
       order by record_id, recorded_at desc, id desc) last
      cross join lateral jsonb_populate_record(null::${table}, last.row_data) kept) as ${table}`;
}
