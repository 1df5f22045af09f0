import { limitsSnapshotNameSql } from '#server/modules/audit/audit-names.ts';
import { AppError } from '#core/errors/errors.ts';
import { DEFAULT_REQUIRED_PASSES } from '#core/entities/defs/protocols.def.ts';
import type { TStudy, TStudyOutcome } from '#core/schemas/verification.schemas.ts';
import { PERIODIC_VERIFICATION_DAYS } from '#core/schemas/dashboard.schemas.ts';
import type { TStudyType } from '#core/schemas/cleaning-assessments.schemas.ts';
import type { Queryable, SqlValue } from '#server/db/db.ts';
import { likePattern, orderBy, pageWindow } from '#server/db/paging.ts';
import { controlledStates, type ControlledVersionState } from '#server/records/controlled.ts';
import { validationState } from '#core/verification/coverage.ts';
import { equipmentCoverage } from './study-coverage.ts';
import { numberOf as changeNumberOf } from '#server/modules/change-assessments/change-assessments.read.ts';

/* Reads of studies (core/verification/README.md): the header, its pinned protocol, its origin,
   the outcome as the runs left it, and its controlled state. */

/** ST-0001, ST-0002, … per facility. */
export const studyNumberOf = (seq: number) => `ST-${String(seq).padStart(4, '0')}`;

interface StudyRow {
  id: number;
  seq: number;
  title: string;
  study_type: TStudyType;
  description: string;
  protocol_id: number;
  protocol_version_number: number;
  protocol_content: Record<string, unknown>;
  limits_snapshot_id: number | null;
  limits_snapshot_name: string | null;
  origin_kind: TStudy['origin']['kind'];
  origin_id: number | null;
  task_label: string | null;
  change_seq: number | null;
  outcome: TStudyOutcome;
  consecutive_passes: number;
  failed_run_policy: TStudy['failedRunPolicy'];
  run_count: number;
  closed_at: Date | string | null;
  close_reason: string | null;
  created_at: Date | string;
  created_by_name: string | null;
  version: number;
}

const COLUMNS = `s.id, s.seq, s.title, s.study_type, s.description, s.protocol_id,
  s.protocol_version_number, s.protocol_content, s.limits_snapshot_id,
  ${limitsSnapshotNameSql('s.limits_snapshot_id')} as limits_snapshot_name, s.origin_kind, s.origin_id,
  t.product_name || ' on ' || t.train_name as task_label, c.seq as change_seq, s.outcome,
  s.consecutive_passes, s.failed_run_policy,
  (select count(*)::int from study_runs r where r.study_id = s.id) as run_count,
  s.closed_at, s.close_reason, s.created_at, u.first_name || ' ' || u.last_name as created_by_name,
  s.version`;

const FROM = `studies s
  left join qualification_tasks t on s.origin_kind = 'qualificationTask' and t.id = s.origin_id
  left join change_assessments c on s.origin_kind = 'changeAssessment' and c.id = s.origin_id
  left join users u on u.id = s.created_by`;

const iso = (value: Date | string) => new Date(value).toISOString();

/** The consecutive passing runs the pinned protocol asks for (3 unless it says otherwise). */
export function requiredPassesOf(content: Record<string, unknown>): number {
  const passes = content.requiredPasses;
  return typeof passes === 'number' ? passes : DEFAULT_REQUIRED_PASSES;
}

function toStudy(row: StudyRow, state: ControlledVersionState | undefined): TStudy {
  const label =
    row.origin_kind === 'qualificationTask'
      ? row.task_label
      : row.change_seq === null
        ? null
        : changeNumberOf(row.change_seq);
  return {
    id: row.id,
    number: studyNumberOf(row.seq),
    title: row.title,
    studyType: row.study_type,
    description: row.description,
    protocolId: row.protocol_id,
    protocolVersionNumber: row.protocol_version_number,
    protocolName: String(row.protocol_content.name ?? ''),
    limitsSnapshotId: row.limits_snapshot_id,
    limitsSnapshotName: row.limits_snapshot_name,
    origin: { kind: row.origin_kind, id: row.origin_id, label },
    outcome: row.outcome,
    requiredPasses: requiredPassesOf(row.protocol_content),
    consecutivePasses: row.consecutive_passes,
    failedRunPolicy: row.failed_run_policy,
    runCount: row.run_count,
    closedAt: row.closed_at === null ? null : iso(row.closed_at),
    closeReason: row.close_reason,
    createdAt: iso(row.created_at),
    createdByName: row.created_by_name,
    // `version` is the study's own (edits and close name it); a study is saved as version 1
    // Being Built in the transaction that creates it.
    controlled: {
      ...(state ?? { status: 'BeingBuilt', signatureState: null, versionNumber: 1 }),
      version: row.version,
    },
  };
}

async function withStates(q: Queryable, facilityId: number, rows: StudyRow[]): Promise<TStudy[]> {
  const states = await controlledStates(
    q,
    { facilityId, documentType: 'Study' },
    rows.map((r) => r.id),
  );
  return rows.map((r) => toStudy(r, states.get(r.id)));
}

/** One study of the facility; 404 otherwise. */
export async function getStudy(q: Queryable, facilityId: number, id: number): Promise<TStudy> {
  const rows = await q.query<StudyRow>(
    `select ${COLUMNS} from ${FROM} where s.facility_id = $1 and s.id = $2`,
    [facilityId, id],
  );
  if (rows.length === 0) throw new AppError('NotFoundError', `Study ${id} was not found`);
  return (await withStates(q, facilityId, rows))[0]!;
}

export interface StudyFilter {
  pageNumber: number;
  pageLimit: number;
  search?: string | undefined;
  sortBy?: string | undefined;
  sortOrder?: 'asc' | 'desc' | 'ascend' | 'descend' | undefined;
  outcome?: TStudyOutcome | undefined;
  studyType?: TStudyType | undefined;
  overdue?: boolean | undefined;
}

/**
 * The studies behind the dashboard's Overdue count (dashboard.service.ts, equipmentStatus): the
 * latest study of an item of equipment (the coverage model) whose item is Overdue.
 */
async function overdueStudyIds(q: Queryable, facilityId: number): Promise<number[]> {
  const now = new Date();
  const items = await equipmentCoverage(q, facilityId);
  const ids = items.flatMap((item) =>
    item.study && validationState(item.study, now, PERIODIC_VERIFICATION_DAYS) === 'Overdue'
      ? [item.study.id]
      : [],
  );
  return [...new Set(ids)];
}

const SORTABLE = {
  number: 's.seq',
  title: 's.title',
  studyType: 's.study_type',
  outcome: 's.outcome',
  createdAt: 's.created_at',
};

/** A page of the facility's studies, newest first unless sorted otherwise. */
export async function listStudies(
  q: Queryable,
  facilityId: number,
  filter: StudyFilter,
): Promise<{ data: TStudy[]; total: number }> {
  const { limit, offset } = pageWindow(filter);
  const params: SqlValue[] = [
    facilityId,
    filter.outcome ?? null,
    filter.studyType ?? null,
    likePattern(filter.search),
    filter.overdue ? await overdueStudyIds(q, facilityId) : null,
  ];
  const where = `s.facility_id = $1 and ($2::text is null or s.outcome = $2)
    and ($5::int[] is null or s.id = any($5::int[]))
    and ($3::text is null or s.study_type = $3)
    and ($4::text is null or s.title ilike $4 or 'ST-' || lpad(s.seq::text, 4, '0') ilike $4
         or s.protocol_content->>'name' ilike $4)`;
  const rows = await q.query<StudyRow>(
    `select ${COLUMNS} from ${FROM} where ${where}
      order by ${orderBy(filter, SORTABLE, 's.seq desc')}, s.id limit ${limit} offset ${offset}`,
    params,
  );
  const [count] = await q.query<{ total: number }>(
    `select count(*)::int as total from studies s where ${where}`,
    params,
  );
  return { data: await withStates(q, facilityId, rows), total: count!.total };
}
