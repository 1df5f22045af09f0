import type { StatisticsPointInput } from '#core/verification/statistics.ts';
import type { z } from 'zod';
import type { ZInvalidatedPoint, ZStatisticsQuery } from '#core/schemas/verification.schemas.ts';
import { AppError } from '#core/errors/errors.ts';
import { STATISTICS_RESIDUE_TYPES } from '#core/schemas/verification.schemas.ts';
import type { Queryable, SqlValue } from '#server/db/db.ts';
import { tableAsOf } from '#server/entities/entity-history.ts';

type Query = z.infer<typeof ZStatisticsQuery>;
type InvalidatedPoint = z.infer<typeof ZInvalidatedPoint>;

/**
 * The points of one group (core/verification/README.md, "Ongoing verification", groups):
 * - equipment / location: results taken on that equipment / sampling location;
 * - production: results on any equipment of the production's train (productions.equipment_ids);
 *   historical results of studies done on that production;
 * - residueType: runs judge sample results against the limits snapshot's carryover limits of
 *   the active substances, so every sample result counts under 'Chemical'; microbial results
 *   (as percent of their microbial limit) under 'Microbial'; historical results under the
 *   residue type they were entered with.
 * A sample result counts when it is not superseded (a retest or reswab replaces it), its run is
 * not invalidated (a non-process deviation: the run is repeated, its results say nothing of the
 * cleaning) and it has a percent of limit (a result with no limit to be judged against draws
 * nothing). A result an approved laboratory investigation invalidated (FDA OOS guidance: an
 * assignable laboratory cause) is never a point of the mean or Ppu, whether or not its retest is
 * in yet; it is answered apart, so the trend still shows that it happened.
 */
interface Filter {
  results: string;
  historical: string;
  param: number | string;
  /** What the points are grouped by, when one read serves several groups. */
  key?: { results: string; historical: string };
}

const integerKey = (key: string): number => {
  const id = Number(key);
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647)
    throw new AppError('NotFoundError');
  return id;
};

/** The group's name as the screen titles it; 404 for a key the facility does not have. */
async function labelOf(q: Queryable, facilityId: number, query: Query): Promise<string> {
  const { groupBy, key } = query;
  if (groupBy === 'residueType') return key;
  const table = {
    equipment: 'equipment',
    location: 'sampling_locations',
    production: 'productions',
  }[groupBy];
  const [row] = await q.query<{ name: string }>(
    `select name from ${table} where facility_id = $1 and id = $2`,
    [facilityId, integerKey(key)],
  );
  if (!row) throw new AppError('NotFoundError');
  return row.name;
}

/** Which results and historical results belong to the group. */
function filterOf(query: Query): Filter {
  const { groupBy, key } = query;
  if (groupBy === 'residueType') {
    if (!(STATISTICS_RESIDUE_TYPES as readonly string[]).includes(key))
      throw new AppError('NotFoundError');
    return {
      results: `r.residue_type = $2::text`,
      historical: `h.residue_type = $2::text`,
      param: key,
    };
  }
  const id = integerKey(key);
  if (groupBy === 'equipment')
    return { results: 'r.equipment_id = $2', historical: 'h.equipment_id = $2', param: id };
  if (groupBy === 'location') {
    return {
      results: 'r.sampling_location_id = $2',
      historical: 'h.sampling_location_id = $2',
      param: id,
    };
  }
  return {
    results: `r.equipment_id = any (select unnest(equipment_ids) from productions where facility_id = $1 and id = $2)`,
    historical: 's.production_id = $2',
    param: id,
  };
}

interface PointRow {
  group_key: string;
  result_id: number | null;
  taken_at: string;
  label: string;
  percent_of_limit: number;
  censored_below: boolean;
  censored_above: boolean;
  investigation_id: number | null;
}

/**
 * The group's label and its counted points, sample results and marked historical results; with
 * `asOf`, as the results stood then (a report's data read again as of its date).
 */
export async function statisticsPoints(
  q: Queryable,
  facilityId: number,
  query: Query,
  options: { asOf?: string | undefined } = {},
): Promise<{ label: string; points: StatisticsPointInput[]; invalidated: InvalidatedPoint[] }> {
  const filter = filterOf(query);
  // The name and the points at once: on a server, two connections of the pool.
  const [label, { groups, invalidated }] = await Promise.all([
    labelOf(q, facilityId, query),
    pointsOf(q, facilityId, filter, query, options.asOf),
  ]);
  return { label, points: groups.get('') ?? [], invalidated };
}

/**
 * The counted points of several equipment items at once, by item id: what `statisticsPoints`
 * gives for each with groupBy 'equipment', in one read (a report over every item of a facility
 * would otherwise rebuild the results as of its moment once per item).
 */
export async function equipmentPoints(
  q: Queryable,
  facilityId: number,
  equipmentIds: number[],
  period: Pick<Query, 'from' | 'to'>,
  options: { asOf?: string | undefined } = {},
): Promise<Map<string, StatisticsPointInput[]>> {
  const filter: Filter = {
    results: 'r.equipment_id = any($2::int[])',
    historical: 'h.equipment_id = any($2::int[])',
    param: `{${equipmentIds.join(',')}}`,
    key: { results: 'r.equipment_id', historical: 'h.equipment_id' },
  };
  return (await pointsOf(q, facilityId, filter, period, options.asOf)).groups;
}

/** The points matching a filter, grouped by its key. */
async function pointsOf(
  q: Queryable,
  facilityId: number,
  filter: Filter,
  query: Pick<Query, 'from' | 'to'>,
  asOf: string | undefined,
): Promise<{ groups: Map<string, StatisticsPointInput[]>; invalidated: InvalidatedPoint[] }> {
  const params: SqlValue[] = [facilityId, filter.param, query.from ?? null, query.to ?? null];
  if (asOf) params.push(asOf);
  // One group unless the filter names a key: '' then, as `statisticsPoints` reads it.
  const key = filter.key ?? { results: "''", historical: "''" };
  // A FROM item the caller's alias follows: the table, or the table as of the moment.
  const t = (table: string) => (asOf ? `(select * from ${tableAsOf(table, 1, 5)})` : table);
  // microbial_results keeps no versions (its migration attaches no keep_record_versions):
  // as of a moment, the results entered by then, as they are now.
  const microbial = asOf
    ? '(select * from microbial_results where created_at <= $5::timestamptz) mr'
    : 'microbial_results';
  // from/to are whole days, UTC; a historical result's date is its day.
  // The results are filtered once, into memory, before the joins: the tables as of a moment
  // carry no statistics (and PGlite never analyzes), so the planner guessed one row for each
  // and scanned all the results again for every run (2.8 s of a 98-page annual summary).
  const [results, historical] = await Promise.all([
    q.query<PointRow>(
      `with r as materialized (
       select * from (select id, facility_id, run_id, sampling_location_id, equipment_id, taken_at,
                    created_at, percent_of_limit, censored_below, censoring, superseded_by,
                    invalidated_by_investigation, 'Chemical' as residue_type
               from ${t('sample_results')} sr
             union all
             select id, facility_id, run_id, sampling_location_id, equipment_id, read_at,
                    created_at, percent_of_limit, censored_below, censoring, superseded_by,
                    invalidated_by_investigation, 'Microbial'
               from ${microbial}) r
        where r.facility_id = $1
          and (r.superseded_by is null or r.invalidated_by_investigation is not null)
          and r.percent_of_limit is not null and ${filter.results}
          and ($3::date is null or coalesce(r.taken_at, r.created_at) >= $3::date::timestamp at time zone 'UTC')
          and ($4::date is null or coalesce(r.taken_at, r.created_at) < ($4::date + 1)::timestamp at time zone 'UTC'))
     select ${key.results}::text as group_key, r.id as result_id,
            to_char(coalesce(r.taken_at, r.created_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as taken_at,
            'ST-' || lpad(s.seq::text, 4, '0') || ' run ' || u.sequence || ' · ' || coalesce(l.name, 'Final rinse') as label,
            r.percent_of_limit, r.censored_below, r.censoring = '> upper limit' as censored_above,
            r.invalidated_by_investigation as investigation_id
       from r
       join ${t('study_runs')} u on u.id = r.run_id
       join ${t('studies')} s on s.id = u.study_id
       left join ${t('sampling_locations')} l on l.id = r.sampling_location_id
      where u.facility_id = $1 and u.verdict <> 'Invalidated'`,
      params,
    ),
    q.query<PointRow>(
      `select ${key.historical}::text as group_key, null::integer as result_id, h.taken_at || 'T00:00:00.000Z' as taken_at,
            s.name as label, h.percent_of_limit, coalesce(h.censored_below, false) as censored_below,
            false as censored_above, null::integer as investigation_id
       from ${t('historical_study_results')} h
       join ${t('historical_studies')} s on s.id = h.historical_study_id
      where h.facility_id = $1 and s.facility_id = $1 and s.count_in_statistics is true
        and h.archived_at is null and s.archived_at is null and ${filter.historical}
        and ($3::date is null or h.taken_at >= $3::date::text)
        and ($4::date is null or h.taken_at <= $4::date::text)`,
      params,
    ),
  ]);
  const groups = new Map<string, StatisticsPointInput[]>();
  const invalidated: InvalidatedPoint[] = [];
  for (const row of [...historical, ...results]) {
    if (row.investigation_id !== null) {
      invalidated.push({
        resultId: row.result_id!,
        investigationId: row.investigation_id,
        takenAt: row.taken_at,
        label: row.label,
        percentOfLimit: Number(row.percent_of_limit),
      });
      continue;
    }
    const points = groups.get(row.group_key) ?? [];
    points.push({
      resultId: row.result_id,
      historical: row.result_id === null,
      takenAt: row.taken_at,
      label: row.label,
      percentOfLimit: Number(row.percent_of_limit),
      censoredBelow: row.censored_below,
      censoredAbove: row.censored_above,
    });
    groups.set(row.group_key, points);
  }
  return { groups, invalidated };
}
