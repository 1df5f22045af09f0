import { analyticalMethodsDef } from '#core/entities/defs/cleaning.def.ts';
import { isAllowed, type PermissionMap } from '#core/permissions/permission-map.ts';
import {
  CHANGE_AGE_BUCKETS,
  LIMIT_TRACKER_DAYS,
  NEAR_LOQ_FACTOR,
  PERIODIC_VERIFICATION_DAYS,
  RELEASE_FLAGS,
  type TDashboard,
  type TEquipmentState,
  type TEquipmentStatus,
  type TMacLimitTracker,
  type TToxicityScore,
} from '#core/schemas/dashboard.schemas.ts';
import { pairsNearLoq, type LoqMethod } from '#core/dashboard/near-loq.ts';
import { toxicityDistribution } from '#core/dashboard/toxicity-distribution.ts';
import { validationState } from '#core/verification/coverage.ts';
import type { Quantity } from '#core/units/quantity.ts';
import type { Queryable } from '#server/db/db.ts';
import { allEntities } from '#server/entities/entity-store.ts';
import { pendingApprovals } from '#server/records/signatures.read.ts';
import { signerIn } from '#server/modules/signatures/signatures.service.ts';
import { numberOf } from '../change-assessments/change-assessments.read.ts';
import { riskGoal } from '../cleaning-assessments/risk-goal.ts';
import { facilityLimitsInput } from '../limits/facility-limits-input.ts';
import { studyNumberOf } from '../verification/studies/studies.read.ts';
import { equipmentCoverage } from '../verification/studies/study-coverage.ts';
import { failures } from './dashboard-failures.ts';

/*
 * The dashboard (issue 13): what a validation lead needs to see first, read from the records as
 * they are. Each part is read only when the caller may read the records behind it (spec §6);
 * otherwise it is null and the client leaves its tile out. All parts are counted in SQL so the
 * call stays fast for a large facility (bench/dashboard.bench.ts).
 */

const iso = (value: Date | string) => new Date(value).toISOString();
const DAY_MS = 86_400_000;

/** Who is asking, in which facility. */
export interface DashboardCaller {
  facilityId: number;
  userId: number;
  permissions: PermissionMap;
}

const may = (caller: DashboardCaller, resource: string) =>
  isAllowed(caller.permissions, resource, 'Get');

async function setupCounts(q: Queryable, caller: DashboardCaller): Promise<TDashboard['setup']> {
  const [row] = await q.query<Record<string, number>>(
    `select (select count(*)::int from actives where facility_id = $1 and archived_at is null) as actives,
            (select count(*)::int from products where facility_id = $1 and archived_at is null) as products,
            (select count(*)::int from equipment where facility_id = $1 and archived_at is null) as equipment,
            (select count(*)::int from productions where facility_id = $1 and archived_at is null) as productions,
            (select count(*)::int from cleaning_assessments where facility_id = $1) as assessments`,
    [caller.facilityId],
  );
  const count = (resource: string, key: string) =>
    may(caller, resource) ? (row?.[key] ?? 0) : null;
  return {
    actives: count('API', 'actives'),
    products: count('Product', 'products'),
    equipment: count('Equipment', 'equipment'),
    productions: count('Production', 'productions'),
    cleaningAssessments: may(caller, 'FacilityCleaningEvaluation') ? (row?.assessments ?? 0) : null,
  };
}

/**
 * Each equipment item by the latest study that covers it (the coverage model,
 * verification/studies/study-coverage.ts): its outcome, and a Validated one older than the
 * periodic verification frequency is Overdue. An item no study covers is Not covered. With
 * `asOf`, the studies and equipment as they stood then (the annual summary); `keep` overdue
 * items are listed (10 on the dashboard).
 */
export async function equipmentStatus(
  q: Queryable,
  facilityId: number,
  now = new Date(),
  options: { asOf?: string | undefined; keep?: number } = {},
): Promise<TEquipmentStatus> {
  const { asOf, keep = 10 } = options;
  const [items, [tasks]] = await Promise.all([
    equipmentCoverage(q, facilityId, { asOf }),
    q.query<{ open: number }>(
      `select count(*)::int as open from qualification_tasks where facility_id = $1 and status = 'Open'`,
      [facilityId],
    ),
  ]);
  const counts: Record<TEquipmentState, number> = {
    Validated: 0,
    'On Going': 0,
    Failed: 0,
    Overdue: 0,
    'Not covered': 0,
  };
  const overdue: TEquipmentStatus['overdue'] = [];
  for (const item of items) {
    const state = validationState(item.study, now, PERIODIC_VERIFICATION_DAYS);
    counts[state]++;
    if (state === 'Overdue' && item.study)
      overdue.push({ id: item.id, name: item.name, validatedAt: item.study.at });
  }
  overdue.sort((a, b) => a.validatedAt.localeCompare(b.validatedAt));
  return {
    equipmentCount: items.length,
    counts,
    overdue: overdue.slice(0, keep),
    openQualificationTasks: tasks?.open ?? 0,
    periodicVerificationDays: PERIODIC_VERIFICATION_DAYS,
  };
}

/** Change assessments neither approved nor cancelled, by days since they were raised. */
export async function openChangeAssessments(
  q: Queryable,
  facilityId: number,
): Promise<NonNullable<TDashboard['openChangeAssessments']>> {
  const rows = await q.query<{ id: number; seq: number; title: string; age: number }>(
    `select ca.id, ca.seq, ca.title,
            floor(extract(epoch from now() - ca.created_at) / 86400)::int as age
       from change_assessments ca
      where ca.facility_id = $1 and ca.cancelled_at is null
        and not exists (select 1 from controlled_versions v
                         where v.facility_id = ca.facility_id
                           and v.document_type = 'ChangeAssessment' and v.document_id = ca.id
                           and v.status in ('Approved', 'Deprecated'))
      order by ca.created_at, ca.id`,
    [facilityId],
  );
  const byAge = CHANGE_AGE_BUCKETS.map((bucket) => ({ label: bucket.label, count: 0 }));
  for (const row of rows) {
    const at = CHANGE_AGE_BUCKETS.findIndex((b) => b.upTo === null || row.age < b.upTo);
    const bucket = byAge[at];
    if (bucket) bucket.count++;
  }
  const first = rows[0];
  return {
    open: rows.length,
    byAge,
    oldest: first
      ? { id: first.id, number: numberOf(first.seq), title: first.title, ageDays: first.age }
      : null,
  };
}

/** Runs that ended today in the facility's time zone, with the release flag they gave. */
export async function releaseFlagsToday(
  q: Queryable,
  facilityId: number,
): Promise<NonNullable<TDashboard['releaseFlags']>> {
  const rows = await q.query<{
    id: number;
    study_id: number;
    study_seq: number;
    sequence: number;
    release_flag: (typeof RELEASE_FLAGS)[number];
    today: string;
  }>(
    `with day as (
       select f.timezone as tz,
              (date_trunc('day', now() at time zone f.timezone) at time zone f.timezone) as starts,
              to_char(now() at time zone f.timezone, 'YYYY-MM-DD') as today
         from facilities f where f.id = $1)
     select r.id, r.study_id, s.seq as study_seq, r.sequence, r.release_flag, day.today
       from day
       left join study_runs r on r.facility_id = $1 and r.ended_at >= day.starts
                             and r.ended_at < day.starts + interval '1 day'
       left join studies s on s.id = r.study_id
      order by r.ended_at, r.id`,
    [facilityId],
  );
  const counts = Object.fromEntries(RELEASE_FLAGS.map((flag) => [flag, 0])) as Record<
    (typeof RELEASE_FLAGS)[number],
    number
  >;
  const runs = rows.filter((row) => row.id !== null);
  for (const run of runs) counts[run.release_flag]++;
  return {
    date: rows[0]?.today ?? new Date().toISOString().slice(0, 10),
    counts,
    runs: runs.slice(0, 20).map((run) => ({
      id: run.id,
      studyId: run.study_id,
      studyNumber: studyNumberOf(run.study_seq),
      sequence: run.sequence,
      releaseFlag: run.release_flag,
    })),
  };
}

/** `GET {F}/dashboard`: every part the caller may read. */
export async function dashboard(q: Queryable, caller: DashboardCaller): Promise<TDashboard> {
  const { facilityId } = caller;
  const studies = may(caller, 'QualificationTask');
  const [setup, equipment, changes, signer, release, failed, goal] = await Promise.all([
    setupCounts(q, caller),
    studies && may(caller, 'Equipment') ? equipmentStatus(q, facilityId) : null,
    may(caller, 'FacilityCleaningEvaluation') ? openChangeAssessments(q, facilityId) : null,
    signerIn(q, caller.userId, facilityId),
    studies ? releaseFlagsToday(q, facilityId) : null,
    studies ? failures(q, facilityId) : null,
    may(caller, 'RiskCalculation') ? riskGoal(q, facilityId) : null,
  ]);
  const waiting = await pendingApprovals(q, facilityId, signer);
  return {
    setup,
    equipmentStatus: equipment,
    openChangeAssessments: changes,
    mySignatures: { count: waiting.length, items: waiting.slice(0, 5) },
    releaseFlags: release,
    failures: failed,
    riskGoal: goal,
  };
}

/** `GET {F}/dashboard/toxicity-score`: the actives (not archived) by toxicity score. */
export async function toxicityScore(q: Queryable, facilityId: number): Promise<TToxicityScore> {
  const rows = await q.query<{ pde: Quantity<string> | null }>(
    `select pde from actives where facility_id = $1 and archived_at is null`,
    [facilityId],
  );
  return toxicityDistribution(rows.map((row) => row.pde));
}

/**
 * The limits snapshots stored from `since` (until `until`) whose limits differ from the snapshot
 * before (the output hash moved), newest first, each with the approval that put it in force. The
 * limit tracker and a report's "compare with today" read it.
 */
export async function limitMoves(
  q: Queryable,
  facilityId: number,
  since: Date | string,
  until: Date | string | null = null,
): Promise<TMacLimitTracker['moves']> {
  const moves = await q.query<{
    id: number;
    created_at: Date | string;
    document_type: string;
    document_id: number;
    title: string | null;
    change_assessment_id: number | null;
  }>(
    `select l.id, l.created_at, l.document_type, l.document_id, v.title,
            case when l.document_type = 'ChangeAssessment' then l.document_id end as change_assessment_id
       from (select id, created_at, document_type, document_id, version_number, output_hash,
                    lag(output_hash) over (order by id) as previous_hash
               from limits_snapshots where facility_id = $1) l
       left join controlled_versions v
              on v.facility_id = $1 and v.document_type = l.document_type
             and v.document_id = l.document_id and v.version_number = l.version_number
      where l.created_at >= $2 and ($3::timestamptz is null or l.created_at <= $3)
        and l.output_hash is distinct from l.previous_hash
      order by l.id desc`,
    [facilityId, since, until],
  );
  return moves.map((row) => ({
    snapshotId: row.id,
    at: iso(row.created_at),
    documentType: row.document_type,
    documentId: row.document_id,
    title: row.title ?? `${row.document_type} ${row.document_id}`,
    changeAssessmentId: row.change_assessment_id,
  }));
}

/**
 * `GET {F}/dashboard/mac_limit_tracker`: the limits snapshots of the last 90 days whose limits
 * differ from the snapshot before (the output hash moved), each with the approval that put them in
 * force; and the pairs whose limit is within a factor of 2 of an analytical method's LOQ, from the
 * limits in force now.
 */
export async function macLimitTracker(q: Queryable, facilityId: number): Promise<TMacLimitTracker> {
  const since = new Date(Date.now() - LIMIT_TRACKER_DAYS * DAY_MS);
  const moves = await limitMoves(q, facilityId, since);
  let nearLoq: TMacLimitTracker['nearLoq'];
  try {
    const [input, methods] = await Promise.all([
      facilityLimitsInput(q, facilityId),
      allEntities(q, analyticalMethodsDef, facilityId),
    ]);
    const loqMethods: LoqMethod[] = methods.map((m) => ({
      name: String(m.name),
      loq: (m.loq as Quantity<string> | null) ?? null,
    }));
    nearLoq = {
      factor: NEAR_LOQ_FACTOR,
      ...pairsNearLoq(input, loqMethods, { factor: NEAR_LOQ_FACTOR, keep: 20 }),
    };
  } catch (error) {
    // No approved policy or incomplete data: say why rather than fail the tile.
    nearLoq = {
      factor: NEAR_LOQ_FACTOR,
      count: 0,
      pairs: [],
      note: `The limits could not be computed: ${(error as Error).message}`,
    };
  }
  return {
    since: since.toISOString(),
    moves,
    nearLoq,
  };
}
