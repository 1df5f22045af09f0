import { AppError } from '#core/errors/errors.ts';
import { cleaningAssessmentsDecl } from '#core/entities/defs/assessments.def.ts';
import type {
  TAssessmentResult,
  TCleaningAssessment,
} from '#core/schemas/cleaning-assessments.schemas.ts';
import type { TJobProgress } from '#core/schemas/jobs.schemas.ts';
import type { TListQuery } from '#core/schemas/common.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { jobProgressColumn } from '#server/jobs/jobs.ts';
import { controlledStates, type ControlledVersionState } from '#server/records/controlled.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';

/*
 * Cleaning assessments (core/assessments/README.md): the record, its number per facility, its
 * progress while the job runs, and its result once done. A record of the controlled document
 * type CleaningAssessment from its completion on.
 */

export const DOCUMENT_TYPE = cleaningAssessmentsDecl.controlled.documentType;
export const AUDIT_DOMAIN = cleaningAssessmentsDecl.domain;

export interface Scope {
  planId: number;
  facilityId: number;
}

export interface AssessmentRow {
  id: number;
  facility_id: number;
  number: string;
  reason: string | null;
  job_id: string | null;
  progress: TJobProgress;
  started_by: number;
  started_by_name?: string | null;
  started_at: Date;
  completed_at: Date | null;
  version: number;
  counts: TAssessmentResult['counts'] | null;
  result?: TAssessmentResult | null;
  job_progress?: TJobProgress | null;
}

const COLUMNS = `id, facility_id, number, reason, job_id, progress, started_by, started_at,
  completed_at, version, result -> 'counts' as counts,
  (select nullif(concat_ws(' ', u.first_name, u.last_name), '') from users u
    where u.id = cleaning_assessments.started_by) as started_by_name,
  ${jobProgressColumn('cleaning_assessments.job_id')}`;

/** Before the job is done there is no controlled version yet: it will be version 1, Being Built. */
const NOT_YET: ControlledVersionState = {
  status: 'BeingBuilt',
  signatureState: null,
  versionNumber: 1,
};

export type AssessmentSummary = Omit<TCleaningAssessment, 'result'> & {
  counts: TAssessmentResult['counts'] | null;
};

function summaryOf(
  row: AssessmentRow,
  state: ControlledVersionState | undefined,
): AssessmentSummary {
  return {
    ...(state ?? NOT_YET),
    version: row.version,
    id: row.id,
    number: row.number,
    reason: row.reason,
    progress: row.progress,
    startedBy: row.started_by,
    startedByName: row.started_by_name ?? null,
    startedAt: row.started_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
    counts: row.counts,
  };
}

/**
 * Until the assessment is complete its progress is its job's (server/jobs), which also knows a
 * job that is waiting for a retry or stopped for good; the record keeps what the job last said.
 */
function withJobProgress(row: AssessmentRow): AssessmentRow {
  if (row.completed_at || !row.job_progress) return row;
  return { ...row, progress: row.job_progress };
}

async function summaries(q: Queryable, facilityId: number, listed: AssessmentRow[]) {
  const rows = listed.map(withJobProgress);
  const states = await controlledStates(
    q,
    { facilityId, documentType: DOCUMENT_TYPE },
    rows.map((r) => r.id),
  );
  return rows.map((row) => summaryOf(row, states.get(row.id)));
}

/**
 * Inserts the assessment (progress queued) with its audit row, numbered FCE-0001 on in the
 * facility; `enqueue` starts its job in the same transaction.
 */
export async function startAssessment(
  db: Db,
  actor: Actor,
  scope: Scope,
  reason: string | undefined,
  enqueue: (tx: Queryable, facilityId: number, assessmentId: number) => Promise<string | null>,
): Promise<TCleaningAssessment> {
  return db.transaction(async (tx) => {
    // Two starts at once must not take the same number.
    await tx.query('select id from facilities where id = $1 for update', [scope.facilityId]);
    const [inserted] = await tx.query<{ id: number }>(
      `insert into cleaning_assessments (facility_id, seq, number, reason, started_by, updated_by)
       select $1, n, 'FCE-' || lpad(n::text, 4, '0'), $2, $3, $3
         from (select coalesce(max(seq), 0) + 1 as n from cleaning_assessments
                where facility_id = $1) s
       returning id`,
      [scope.facilityId, reason ?? null, actor.userId],
    );
    const id = inserted!.id;
    const jobId = await enqueue(tx, scope.facilityId, id);
    if (jobId)
      await tx.query('update cleaning_assessments set job_id = $2 where id = $1', [id, jobId]);
    const row = await assessmentRow(tx, scope.facilityId, id);
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: AUDIT_DOMAIN,
      action: 'Generate',
      entityId: id,
      reason: reason ?? null,
      newValues: { number: row.number, jobId },
    });
    return { ...summaryOf(row, undefined), result: null };
  });
}

export async function assessmentRow(
  q: Queryable,
  facilityId: number,
  id: number,
  withResult = false,
): Promise<AssessmentRow> {
  const [row] = await q.query<AssessmentRow>(
    `select ${COLUMNS}${withResult ? ', result' : ''} from cleaning_assessments
      where facility_id = $1 and id = $2`,
    [facilityId, id],
  );
  if (!row) throw new AppError('NotFoundError', `Cleaning assessment ${id} was not found`);
  return row;
}

export async function getAssessment(
  q: Queryable,
  facilityId: number,
  id: number,
): Promise<TCleaningAssessment> {
  const row = await assessmentRow(q, facilityId, id, true);
  const [summary] = await summaries(q, facilityId, [row]);
  const { counts: _counts, ...rest } = summary!;
  return { ...rest, result: row.result ?? null };
}

export async function listAssessments(
  q: Queryable,
  facilityId: number,
  query: Pick<TListQuery, 'pageNumber' | 'pageLimit'>,
): Promise<{ cleaningAssessments: AssessmentSummary[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    q.query<AssessmentRow>(
      `select ${COLUMNS} from cleaning_assessments where facility_id = $1
        order by id desc limit $2 offset $3`,
      [facilityId, query.pageLimit, (query.pageNumber - 1) * query.pageLimit],
    ),
    q.query<{ n: number }>(
      'select count(*)::int as n from cleaning_assessments where facility_id = $1',
      [facilityId],
    ),
  ]);
  return { cleaningAssessments: await summaries(q, facilityId, rows), total: count?.n ?? 0 };
}

/**
 * The completed assessment before `id` (which must be the facility's), or without `id` the one
 * before the latest completed assessment: what the latest is compared with.
 */
export async function priorAssessmentRow(
  q: Queryable,
  facilityId: number,
  id: number | undefined,
): Promise<AssessmentRow | null> {
  let before: number;
  if (id === undefined) {
    const [latest] = await q.query<{ id: number }>(
      `select id from cleaning_assessments where facility_id = $1 and completed_at is not null
        order by completed_at desc, id desc limit 1`,
      [facilityId],
    );
    if (!latest) return null;
    before = latest.id;
  } else {
    before = (await assessmentRow(q, facilityId, id)).id;
  }
  const [row] = await q.query<AssessmentRow>(
    `select ${COLUMNS} from cleaning_assessments
      where facility_id = $1 and id < $2 and completed_at is not null
      order by completed_at desc, id desc limit 1`,
    [facilityId, before],
  );
  return row ?? null;
}

export async function priorAssessment(
  q: Queryable,
  facilityId: number,
  id: number | undefined,
): Promise<AssessmentSummary | null> {
  const row = await priorAssessmentRow(q, facilityId, id);
  if (!row) return null;
  const [summary] = await summaries(q, facilityId, [row]);
  return summary ?? null;
}
