import {
  activesDef,
  equipmentDef,
  equipmentGroupsDef,
  productGroupsDef,
  productionsDef,
  productsDef,
  samplingTypesDef,
} from '#core/entities/defs/index.ts';
import {
  analyticalMethodsDef,
  cleaningAgentsDef,
  cleaningProceduresDef,
} from '#core/entities/defs/cleaning.def.ts';
import { microbialMethodsDef } from '#core/entities/defs/sampling.def.ts';
import { samplesDef } from '#core/entities/defs/samples.def.ts';
import { samplingLocationsDef } from '#core/entities/defs/sampling-locations.def.ts';
import { intermediatesDef, nitrosaminesDef } from '#core/entities/defs/substances.def.ts';
import type { TImpactSummary } from '#core/schemas/change-assessments.schemas.ts';
import { verificationStatistics } from '#core/verification/statistics.ts';
import type { Queryable } from '#server/db/db.ts';
import { tableAsOf } from '#server/entities/entity-history.ts';
import { numberOf as changeNumberOf } from '../change-assessments/change-assessments.read.ts';
import { equipmentStatus } from '../dashboard/dashboard.service.ts';
import { deviationNumber } from '../verification/runs/runs.read.ts';
import { equipmentPoints } from '../verification/statistics/statistics-points.ts';
import { verificationSettings } from '../verification/statistics/verification-settings.ts';
import { requiredPassesOf, studyNumberOf } from '../verification/studies/studies.read.ts';

/*
 * The data of an annual summary (README.md in this folder, "annual-summary"): what happened in
 * the period [start, end] (whole UTC days, as the verification statistics count them), read as
 * the records stood at the report's moment `asOf` (record_versions), so that reading it again
 * as of that moment gives the same data.
 */

/** The audit domains of the master data (spec §4 "Master-data sections"). */
export const MASTER_DATA_DOMAINS: readonly string[] = [
  ...[
    activesDef,
    productsDef,
    productGroupsDef,
    equipmentDef,
    equipmentGroupsDef,
    productionsDef,
    cleaningAgentsDef,
    cleaningProceduresDef,
    analyticalMethodsDef,
    microbialMethodsDef,
    nitrosaminesDef,
    intermediatesDef,
    samplingTypesDef,
    samplingLocationsDef,
    samplesDef,
  ].map((def) => def.domain),
  'EquipmentImage',
  'RoomGrade',
];

export interface Period {
  start: string;
  end: string;
  /** The first moment after the period, or the report's moment if that is earlier. */
  until: string;
}

/** A table as of the report's moment (`$1` the facility, `$4` the moment), under an alias. */
const at = (table: string, alias: string) => `(select * from ${tableAsOf(table, 1, 4)}) ${alias}`;

const ts = (column: string) =>
  `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

export interface ApprovedChange {
  id: number;
  number: string;
  title: string;
  changeType: string;
  versionNumber: number;
  approvedAt: string;
  changeCount: number;
  impact: TImpactSummary | null;
  decisions: Record<string, number>;
}

export async function approvedChanges(
  q: Queryable,
  facilityId: number,
  period: Period,
  asOf: string,
): Promise<ApprovedChange[]> {
  // An approved version's content is what its signers saw; approved_at never changes after.
  const rows = await q.query<{
    document_id: number;
    version_number: number;
    content: Record<string, unknown>;
    approved_at: string;
  }>(
    `select document_id, version_number, content, ${ts('approved_at')} as approved_at
       from ${tableAsOf('controlled_versions', 1, 4)}
      where document_type = 'ChangeAssessment' and approved_at >= $2::date::timestamp at time zone 'UTC'
        and approved_at < $3::timestamptz
      order by approved_at, document_id`,
    [facilityId, period.start, period.until, asOf],
  );
  return rows.map((row) => {
    const c = row.content;
    const evaluation = c.evaluation as { summary?: TImpactSummary } | null;
    const decisions: Record<string, number> = {};
    for (const d of (c.decisions as { decision: string }[] | undefined) ?? [])
      decisions[d.decision] = (decisions[d.decision] ?? 0) + 1;
    return {
      id: row.document_id,
      number: String(c.number ?? changeNumberOf(row.document_id)),
      title: String(c.title ?? ''),
      changeType: String(c.changeType ?? ''),
      versionNumber: row.version_number,
      approvedAt: row.approved_at,
      changeCount: Array.isArray(c.changes) ? c.changes.length : 0,
      impact: evaluation?.summary ?? null,
      decisions,
    };
  });
}

export interface StudyInPeriod {
  id: number;
  number: string;
  title: string;
  studyType: string;
  outcome: string;
  createdAt: string;
  closedAt: string | null;
  runsInPeriod: number;
  consecutivePasses: number;
  requiredPasses: number;
}

/** Studies open at some time in the period, with their outcome as of the report. */
export async function studiesInPeriod(
  q: Queryable,
  facilityId: number,
  period: Period,
  asOf: string,
): Promise<StudyInPeriod[]> {
  const rows = await q.query<{
    id: number;
    seq: number;
    title: string;
    study_type: string;
    outcome: string;
    created_at: string;
    closed_at: string | null;
    runs: number;
    consecutive_passes: number;
    protocol_content: Record<string, unknown>;
  }>(
    `select s.id, s.seq, s.title, s.study_type, s.outcome, ${ts('s.created_at')} as created_at,
            ${ts('s.closed_at')} as closed_at, s.consecutive_passes, s.protocol_content,
            coalesce(r.runs, 0) as runs
       from ${at('studies', 's')}
       left join (select study_id, count(*)::int as runs from ${tableAsOf('study_runs', 1, 4)}
                   where coalesce(ended_at, started_at, created_at) >= $2::date::timestamp at time zone 'UTC'
                     and coalesce(ended_at, started_at, created_at) < $3::timestamptz
                   group by study_id) r on r.study_id = s.id
      where s.created_at < $3::timestamptz
        and (s.closed_at is null or s.closed_at >= $2::date::timestamp at time zone 'UTC')
      order by s.seq`,
    [facilityId, period.start, period.until, asOf],
  );
  return rows.map((r) => ({
    id: r.id,
    number: studyNumberOf(r.seq),
    title: r.title,
    studyType: r.study_type,
    outcome: r.outcome,
    createdAt: r.created_at,
    closedAt: r.closed_at,
    runsInPeriod: r.runs,
    consecutivePasses: r.consecutive_passes,
    requiredPasses: requiredPassesOf(r.protocol_content),
  }));
}

export interface RunInPeriod {
  id: number;
  label: string;
  startedAt: string | null;
  endedAt: string | null;
  verdict: string;
  releaseFlag: string;
  results: number;
  failed: number;
  deviations: number;
}

export interface FailedResult {
  run: string;
  location: string;
  equipment: string;
  value: number;
  unit: string;
  percentOfLimit: number | null;
  takenAt: string;
}

export interface DeviationInPeriod {
  number: string;
  run: string;
  kind: string;
  title: string;
  status: string;
  invalidatesRun: boolean;
  rootCause: string | null;
  capaReference: string | null;
}

/** Runs of the period (by their end, else start), their counted results, failures, deviations. */
export async function runsInPeriod(
  q: Queryable,
  facilityId: number,
  period: Period,
  asOf: string,
): Promise<{ runs: RunInPeriod[]; failures: FailedResult[]; deviations: DeviationInPeriod[] }> {
  const params = [facilityId, period.start, period.until, asOf];
  const runsOf = `select u.id, 'ST-' || lpad(s.seq::text, 4, '0') || ' run ' || u.sequence as label,
         u.started_at, u.ended_at, u.verdict, u.release_flag
    from ${at('study_runs', 'u')}
    join ${at('studies', 's')} on s.id = u.study_id
   where coalesce(u.ended_at, u.started_at, u.created_at) >= $2::date::timestamp at time zone 'UTC'
     and coalesce(u.ended_at, u.started_at, u.created_at) < $3::timestamptz`;
  const results = (alias: string) => at('sample_results', alias);
  const [runs, failures, deviations] = await Promise.all([
    q.query<{
      id: number;
      label: string;
      started_at: string | null;
      ended_at: string | null;
      verdict: string;
      release_flag: string;
      results: number;
      failed: number;
      deviations: number;
    }>(
      `with runs as (${runsOf})
       select runs.id, runs.label, ${ts('runs.started_at')} as started_at,
              ${ts('runs.ended_at')} as ended_at, runs.verdict, runs.release_flag,
              coalesce(r.n, 0) as results, coalesce(r.failed, 0) as failed,
              coalesce(d.n, 0) as deviations
         from runs
         left join (select run_id, count(*)::int as n,
                           count(*) filter (where passed is false)::int as failed
                      from ${results('sample_results')} where superseded_by is null group by run_id) r
                on r.run_id = runs.id
         left join (select run_id, count(*)::int as n from ${tableAsOf('deviations', 1, 4)}
                     group by run_id) d on d.run_id = runs.id
        order by coalesce(runs.ended_at, runs.started_at), runs.id`,
      params,
    ),
    q.query<{
      run: string;
      location: string;
      equipment: string;
      raw_value: number;
      unit: string;
      percent_of_limit: number | null;
      taken_at: string;
    }>(
      // The tables as of the moment are rebuilt from their versions and carry no statistics:
      // joined inline, the planner rebuilt the facility's equipment and locations once per
      // result (20 s in a 1,000-product facility). Materialised, each is rebuilt once.
      `with runs as (${runsOf}),
            failed as materialized (
              select * from ${results('r')} where r.superseded_by is null and r.passed is false),
            l as materialized (select id, name from ${at('sampling_locations', 'l')}
                                where l.id in (select sampling_location_id from failed)),
            e as materialized (select id, name from ${at('equipment', 'e')}
                                where e.id in (select equipment_id from failed))
       select runs.label as run, l.name as location, e.name as equipment, r.raw_value, r.unit,
              r.percent_of_limit, ${ts('coalesce(r.taken_at, r.created_at)')} as taken_at
         from failed r
         join runs on runs.id = r.run_id
         join l on l.id = r.sampling_location_id
         join e on e.id = r.equipment_id
        order by coalesce(r.taken_at, r.created_at), r.id`,
      params,
    ),
    q.query<{
      seq: number;
      run: string;
      kind: string;
      title: string;
      status: string;
      invalidates_run: boolean;
      root_cause: string | null;
      capa_reference: string | null;
    }>(
      `with runs as (${runsOf})
       select d.seq, runs.label as run, d.kind, d.title, d.status, d.invalidates_run,
              d.root_cause, d.capa_reference
         from ${at('deviations', 'd')} join runs on runs.id = d.run_id
        order by d.seq`,
      params,
    ),
  ]);
  return {
    runs: runs.map((r) => ({
      id: r.id,
      label: r.label,
      startedAt: r.started_at,
      endedAt: r.ended_at,
      verdict: r.verdict,
      releaseFlag: r.release_flag,
      results: r.results,
      failed: r.failed,
      deviations: r.deviations,
    })),
    failures: failures.map((f) => ({
      run: f.run,
      location: f.location,
      equipment: f.equipment,
      value: Number(f.raw_value),
      unit: f.unit,
      percentOfLimit: f.percent_of_limit === null ? null : Number(f.percent_of_limit),
      takenAt: f.taken_at,
    })),
    deviations: deviations.map((d) => ({
      number: deviationNumber(d.seq),
      run: d.run,
      kind: d.kind,
      title: d.title,
      status: d.status,
      invalidatesRun: d.invalidates_run,
      rootCause: d.root_cause,
      capaReference: d.capa_reference,
    })),
  };
}

export interface EquipmentTrend {
  id: number;
  name: string;
  count: number;
  censoredCount: number;
  mean: number | null;
  ucl: number | null;
  ppu: number | null;
  ppuLower95: number | null;
  ppuTarget: number;
  /** How Ppu was estimated (Bissell, or the censored-data fit with its censored count). */
  ppuMethod: string | null;
  statement: string | null;
  alerts: number;
  /** Percent of limit of each point, oldest first, and whether it is a censored bound. */
  points: [string, number, boolean][];
}

/**
 * Trend and capability of each equipment item with counted results in the period: the points
 * and numbers of `GET {F}/verification/statistics?groupBy=equipment&key={id}&from&to` (the
 * Ongoing verification screen), as of the report's moment.
 */
export async function equipmentTrends(
  q: Queryable,
  facilityId: number,
  period: Period,
  asOf: string,
): Promise<{ trends: EquipmentTrend[]; alertPercent: number; actionPercent: number }> {
  const settings = await verificationSettings(q, facilityId);
  const items = await q.query<{ id: number; name: string }>(
    `select e.id, e.name from ${at('equipment', 'e')}
      where e.id in (
        select equipment_id from ${tableAsOf('sample_results', 1, 4)}
         where coalesce(taken_at, created_at) >= $2::date::timestamp at time zone 'UTC'
           and coalesce(taken_at, created_at) < ($3::date + 1)::timestamp at time zone 'UTC'
        union
        select equipment_id from microbial_results
         where facility_id = $1 and created_at <= $4::timestamptz
           and coalesce(read_at, created_at) >= $2::date::timestamp at time zone 'UTC'
           and coalesce(read_at, created_at) < ($3::date + 1)::timestamp at time zone 'UTC'
        union
        select equipment_id from historical_study_results
         where facility_id = $1 and taken_at between $2::date::text and $3::date::text)
      order by e.name, e.id`,
    [facilityId, period.start, period.end, asOf],
  );
  const trends: EquipmentTrend[] = [];
  const pointsByItem = await equipmentPoints(
    q,
    facilityId,
    items.map((item) => item.id),
    { from: period.start, to: period.end },
    { asOf },
  );
  for (const item of items) {
    const points = pointsByItem.get(String(item.id)) ?? [];
    const s = verificationStatistics(points, settings);
    if (s.count === 0) continue;
    trends.push({
      id: item.id,
      name: item.name,
      count: s.count,
      censoredCount: s.censoredCount,
      mean: s.mean,
      ucl: s.ucl,
      ppu: s.ppu,
      ppuLower95: s.ppuLower95,
      ppuTarget: s.ppuTarget,
      ppuMethod: s.ppuMethod,
      statement: s.statement,
      alerts: s.alerts.length,
      points: s.points.map((p) => [p.takenAt, p.percentOfLimit, p.censoredBelow]),
    });
  }
  return {
    trends,
    alertPercent: settings.alertPercent,
    actionPercent: settings.actionPercent,
  };
}

/** Equipment whose periodic verification was overdue at the period's end (the dashboard's rule). */
export async function overdueAtEnd(q: Queryable, facilityId: number, period: Period, asOf: string) {
  const status = await equipmentStatus(q, facilityId, new Date(period.until), {
    asOf,
    keep: Number.MAX_SAFE_INTEGER,
  });
  return {
    at: period.until,
    periodicVerificationDays: status.periodicVerificationDays,
    equipmentCount: status.equipmentCount,
    counts: status.counts,
    items: status.overdue,
  };
}

/** Master-data changes of the period from the audit trail, counted per entity and action. */
export async function masterDataChanges(
  q: Queryable,
  facilityId: number,
  period: Period,
): Promise<{ domain: string; action: string; count: number }[]> {
  // The audit trail is append-only: rows up to `until` (never after the report) never change.
  return q.query(
    `select domain, action, count(*)::int as count from audit_log
      where facility_id = $1 and domain = any($2::text[])
        and at >= $3::date::timestamp at time zone 'UTC' and at < $4::timestamptz
      group by domain, action order by domain, action`,
    [facilityId, MASTER_DATA_DOMAINS, period.start, period.until],
  );
}
