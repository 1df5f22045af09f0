import { AppError } from '#core/errors/errors.ts';
import type {
  TChangeAssessment,
  TChangeAssessmentSummary,
  TChangeStatus,
  TImpactItem,
  TImpactSummary,
  TStagedChange,
} from '#core/schemas/change-assessments.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { controlledStates, type ControlledVersionState } from '#server/records/controlled.ts';
import { stagedTarget } from './staged-targets.ts';

/*
 * Reads of change assessments: the header, the staged changes with their currency, the latest
 * evaluation with its currency, and the derived changeStatus (core/assessments/README.md).
 */

/**
 * Tables and document types of the assessments themselves, whose writes move no limit; the
 * facility's roles (granting someone a signature is no change of the facility's data); and the
 * plan's HBEL monographs its facility signs, which reach a facility's limits only through its
 * actives' links (a new version through an assessment of its own).
 */
const LIFECYCLE_TABLES = [
  'change_assessments',
  'cleaning_assessments',
  'qualification_tasks',
  'job_runs',
  'roles',
  'hbel_monographs',
];
const LIFECYCLE_DOCUMENT_TYPES = ['ChangeAssessment', 'CleaningAssessment', 'HbelMonograph'];
/** Facility rules that say who signs and what the facility aims at, not what it makes. */
const LIFECYCLE_RULE_KINDS = ['RiskGoal', 'ApprovalPolicy'];

/**
 * The facility's data watermark: the newest kept version of any of its records outside the
 * assessments' own. An evaluation is current while it is unchanged.
 */
export async function facilityDataWatermark(q: Queryable, facilityId: number): Promise<number> {
  const [row] = await q.query<{ id: string | number }>(
    `select id from record_versions
      where facility_id = $1 and table_name <> all($2::text[])
        and not (table_name = 'controlled_versions'
                 and row_data->>'document_type' = any($3::text[]))
        and not (table_name = 'facility_rules' and row_data->>'kind' = any($4::text[]))
      order by id desc limit 1`,
    [facilityId, LIFECYCLE_TABLES, LIFECYCLE_DOCUMENT_TYPES, LIFECYCLE_RULE_KINDS],
  );
  return row ? Number(row.id) : 0;
}

export const numberOf = (seq: number) => `CA-${String(seq).padStart(4, '0')}`;

interface HeaderRow {
  id: number;
  seq: number;
  title: string;
  change_type: TChangeAssessment['changeType'];
  description: string;
  moc_id: number | null;
  moc_number: string | null;
  change_set_version: number;
  limits_snapshot_id: number | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  version: number;
  created_by: number;
  created_at: Date;
  updated_at: Date;
  evaluated_at: Date | null;
  evaluated_by: number | null;
  watermark: string | null;
  evaluated_set: number | null;
  summary: TImpactSummary | null;
  undecided: number | null;
  change_count: number;
}

const HEADER = `select ca.id, ca.seq, ca.title, ca.change_type, ca.description, ca.moc_id,
    m.moc_number, ca.change_set_version, ca.limits_snapshot_id, ca.cancelled_at,
    ca.cancel_reason, ca.version, ca.created_by, ca.created_at, ca.updated_at,
    e.evaluated_at, e.evaluated_by, e.watermark, e.change_set_version as evaluated_set, e.summary,
    (select count(*)::int from json_array_elements(e.items) i
      where not exists (select 1 from change_assessment_decisions d
                         where d.assessment_id = ca.id and d.item_key = i->>'key')) as undecided,
    (select count(*)::int from change_assessment_changes c
      where c.assessment_id = ca.id and c.removed_at is null) as change_count
  from change_assessments ca
  left join moc_records m on m.id = ca.moc_id and m.facility_id = ca.facility_id
  left join change_assessment_evaluations e on e.assessment_id = ca.id
 where ca.facility_id = $1`;

const iso = (d: Date | string) => new Date(d).toISOString();

/** The evaluation is current: same facility data, same change set. */
export function evaluationCurrent(row: HeaderRow, watermark: number): boolean {
  return (
    row.evaluated_at !== null &&
    row.evaluated_set === row.change_set_version &&
    Number(row.watermark) === watermark
  );
}

/** Spec §4's status, derived (never stored by hand). */
export function changeStatusOf(
  row: Pick<HeaderRow, 'cancelled_at'>,
  state: Pick<ControlledVersionState, 'status'>,
  current: boolean,
): TChangeStatus {
  if (row.cancelled_at) return 'Cancelled';
  if (state.status === 'Approved' || state.status === 'Deprecated') return 'Approved';
  if (state.status === 'BeingReviewed' || state.status === 'BeingApproved')
    return 'Pending Approval';
  return current ? 'Pending Approval' : 'Not Evaluated';
}

const FALLBACK: ControlledVersionState = {
  status: 'BeingBuilt',
  signatureState: null,
  versionNumber: 1,
};

/** When an approved assessment's change set was applied, and whose approval applied it. */
export type Applied = NonNullable<TChangeAssessment['applied']>;

async function appliedOf(
  q: Queryable,
  facilityId: number,
  ids: readonly number[],
): Promise<Map<number, Applied>> {
  const rows = await q.query<{
    document_id: number;
    version_number: number;
    approved_at: Date;
    approved_by: string | null;
  }>(
    `select distinct on (v.document_id) v.document_id, v.version_number, v.approved_at,
            (select s.printed_name from signatures s
              where s.facility_id = v.facility_id and s.document_type = v.document_type
                and s.document_id = v.document_id and s.version_number = v.version_number
                and s.action = 'Approve'
              order by s.id desc limit 1) as approved_by
       from controlled_versions v
      where v.facility_id = $1 and v.document_type = 'ChangeAssessment'
        and v.document_id = any($2::int[]) and v.approved_at is not null
      order by v.document_id, v.version_number`,
    [facilityId, [...ids]],
  );
  return new Map(
    rows.map((r) => [
      r.document_id,
      { at: iso(r.approved_at), versionNumber: r.version_number, approvedBy: r.approved_by },
    ]),
  );
}

function summaryOf(
  row: HeaderRow,
  state: ControlledVersionState,
  watermark: number,
  applied: Applied | null,
): TChangeAssessmentSummary {
  // Applied, the evaluation is the one the approval signed: frozen, never stale (ICH Q9's
  // record of the risk decision; EU GMP Annex 15 §11: the change's evaluation is kept).
  const frozen = applied !== null;
  const current = frozen || evaluationCurrent(row, watermark);
  return {
    ...state,
    version: row.version,
    id: row.id,
    number: numberOf(row.seq),
    title: row.title,
    changeType: row.change_type,
    description: row.description,
    mocId: row.moc_id,
    mocNumber: row.moc_number,
    changeStatus: changeStatusOf(row, state, current),
    evaluation:
      row.evaluated_at && row.summary
        ? {
            evaluatedAt: iso(row.evaluated_at),
            evaluatedBy: row.evaluated_by ?? 0,
            current,
            frozen,
            summary: row.summary,
            undecided: row.undecided ?? 0,
          }
        : null,
    limitsSnapshotId: row.limits_snapshot_id,
    applied,
    cancelledAt: row.cancelled_at ? iso(row.cancelled_at) : null,
    cancelReason: row.cancel_reason,
    createdBy: row.created_by,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    changeCount: row.change_count,
  };
}

/** The assessments of a facility (all, or those named), newest first, with their status. */
export async function assessmentSummaries(
  q: Queryable,
  facilityId: number,
  filter: { ids?: readonly number[]; mocIds?: readonly number[] } = {},
): Promise<TChangeAssessmentSummary[]> {
  const rows = await q.query<HeaderRow>(
    `${HEADER}
       and ($2::int[] is null or ca.id = any($2::int[]))
       and ($3::int[] is null or ca.moc_id = any($3::int[]))
     order by ca.id desc`,
    [facilityId, filter.ids ? [...filter.ids] : null, filter.mocIds ? [...filter.mocIds] : null],
  );
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [states, watermark, applied] = await Promise.all([
    controlledStates(q, { facilityId, documentType: 'ChangeAssessment' }, ids),
    facilityDataWatermark(q, facilityId),
    appliedOf(q, facilityId, ids),
  ]);
  return rows.map((r) =>
    summaryOf(r, states.get(r.id) ?? FALLBACK, watermark, applied.get(r.id) ?? null),
  );
}

interface ChangeRow {
  id: number;
  position: number;
  op: TStagedChange['op'];
  entity: string;
  record_id: number | null;
  record_version: number | null;
  values: Record<string, unknown>;
  reason: string;
  label: string;
  staged_by: number;
  staged_at: Date;
  updated_at: Date;
}

/** The staged changes in order, each with whether its record is still as it was staged. */
export async function stagedChanges(
  q: Queryable,
  facilityId: number,
  assessmentId: number,
): Promise<TStagedChange[]> {
  const rows = await q.query<ChangeRow>(
    `select id, position, op, entity, record_id, record_version, "values", reason, label,
            staged_by, staged_at, updated_at
       from change_assessment_changes
      where assessment_id = $1 and facility_id = $2 and removed_at is null
      order by position, id`,
    [assessmentId, facilityId],
  );
  const changes: TStagedChange[] = [];
  for (const r of rows) {
    changes.push({
      id: r.id,
      position: r.position,
      op: r.op,
      entity: r.entity,
      recordId: r.record_id,
      recordVersion: r.record_version,
      values: r.values,
      reason: r.reason,
      label: r.label,
      current: await changeCurrent(q, facilityId, r),
      stagedBy: r.staged_by,
      stagedAt: iso(r.staged_at),
      // A change is written once when staged (updated_at = staged_at) and again on each edit.
      editedAt: r.updated_at.getTime() > r.staged_at.getTime() ? iso(r.updated_at) : null,
    });
  }
  return changes;
}

/** Whether the record a change touches is still at the version it was staged from. */
export async function changeCurrent(
  q: Queryable,
  facilityId: number,
  change: Pick<ChangeRow, 'entity' | 'record_id' | 'record_version'>,
): Promise<boolean> {
  if (change.record_id === null || change.record_version === null) return true;
  try {
    const now = await stagedTarget(change.entity).currentVersion(q, facilityId, change.record_id);
    return now === change.record_version;
  } catch (error) {
    if (error instanceof AppError && error.errName === 'NotFoundError') return false;
    throw error;
  }
}

/** One assessment with its changes; 404 when it is not the facility's. */
export async function getChangeAssessment(
  q: Queryable,
  facilityId: number,
  id: number,
): Promise<TChangeAssessment> {
  const [found] = await assessmentSummaries(q, facilityId, { ids: [id] });
  if (!found) throw new AppError('NotFoundError', `Change assessment ${id} was not found`);
  const { changeCount: _count, ...rest } = found;
  const changes = await stagedChanges(q, facilityId, id);
  // Applied changes moved their records on: what was applied is not compared with them again.
  return {
    ...rest,
    changes: rest.applied ? changes.map((c) => ({ ...c, current: true })) : changes,
  };
}

export interface StoredEvaluation {
  items: Omit<TImpactItem, 'decision'>[];
  pairs: unknown[];
  summary: TImpactSummary;
}

/** The latest evaluation's items with their decisions, or null before the first evaluation. */
export async function evaluatedItems(
  q: Queryable,
  facilityId: number,
  id: number,
): Promise<{ items: TImpactItem[]; summary: TImpactSummary } | null> {
  const [row] = await q.query<{ items: Omit<TImpactItem, 'decision'>[]; summary: TImpactSummary }>(
    `select items, summary from change_assessment_evaluations
      where assessment_id = $1 and facility_id = $2`,
    [id, facilityId],
  );
  if (!row) return null;
  const decisions = await q.query<{
    item_key: string;
    decision: NonNullable<TImpactItem['decision']>['decision'];
    justification: string;
    decided_by: number;
    name: string;
    decided_at: Date;
  }>(
    `select d.item_key, d.decision, d.justification, d.decided_by,
            coalesce(u.first_name || ' ' || u.last_name, '') as name, d.decided_at
       from change_assessment_decisions d left join users u on u.id = d.decided_by
      where d.assessment_id = $1`,
    [id],
  );
  const byKey = new Map(decisions.map((d) => [d.item_key, d]));
  return {
    summary: row.summary,
    items: row.items.map((item) => {
      const d = byKey.get(item.key);
      return {
        ...item,
        decision: d
          ? {
              decision: d.decision,
              justification: d.justification,
              decidedBy: d.decided_by,
              decidedByName: d.name,
              decidedAt: iso(d.decided_at),
            }
          : null,
      };
    }),
  };
}
