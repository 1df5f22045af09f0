import { AppError } from '#core/errors/errors.ts';
import type {
  TCoverageCell,
  TQualificationTask,
  TStudyType,
} from '#core/schemas/cleaning-assessments.schemas.ts';
import type { TStudyOutcome } from '#core/schemas/verification.schemas.ts';
import { qualificationTasksDecl } from '#core/entities/defs/qualification-tasks.def.ts';
import type { Queryable, SqlValue } from '#server/db/db.ts';
import { writeCaused, type RecordType } from '#server/records/write-record.ts';
import { likePattern, orderBy, pageWindow } from '#server/db/paging.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { studyNumberOf } from '../verification/studies/studies.read.ts';

/*
 * Qualification tasks (core/assessments/README.md, "Cleaning assessments"): each gap of a
 * completed cleaning assessment is the study proposed to close it, decided once (accepted or
 * dismissed, signed: qualification-task-decision.ts).
 */

export type TGap = TQualificationTask['gap'];

/**
 * A task through the one write path: decided once, so a decided one no longer changes (409
 * TransactionLocked, naming who decided it).
 */
export const qualificationTaskType: RecordType<typeof qualificationTasksDecl.domain> = {
  decl: qualificationTasksDecl,
  hooks: {
    guard: async (_tx, _actor, _scope, row) => {
      if (row.status !== 'Open')
        throw new AppError(
          'TransactionLocked',
          `This task was already ${String(row.status).toLowerCase()} by ${row.signer_printed_name ?? 'another user'}`,
        );
    },
  },
};

/** Days from an assessment to a task's due date. */
export const TASK_DUE_DAYS = 30;

const SYSTEM: Actor = {
  userId: null,
  userName: 'system',
  ip: null,
  userAgent: null,
  requestId: null,
};

/** The study that closes a gap: a product never studied on the train needs its own study. */
export function proposedStudyType(gap: TGap): TStudyType {
  return gap === 'notCovered' ? 'New Product Introduction' : 'Verification';
}

/** What a task asks for, in words a validation engineer reads in a list. */
export function scopeOf(cell: TCoverageCell): string {
  const where = `${cell.product} on train ${cell.train}`;
  if (cell.state === 'notCovered') return `${where}: no study covers it`;
  const studied = cell.evidence
    .filter((e) => e.limitAtStudy !== null)
    .map((e) => `${e.name} (${e.limitAtStudy} mg/sqcm)`);
  const now = cell.currentLimit === null ? '' : `, now ${cell.currentLimit} mg/sqcm`;
  return `${where}: the surface limit has tightened since ${studied.length > 0 ? studied.join(', ') : 'its study'}${now}; verify the cleaning against the new limit`;
}

type GapRow = Pick<
  TaskRow,
  | 'train_id'
  | 'train_name'
  | 'product_id'
  | 'product_name'
  | 'gap'
  | 'proposed_study_type'
  | 'scope'
>;

/** The gap cells, one per (train, product, gap), in the order the coverage lists them. */
function gapRows(coverage: TCoverageCell[]): GapRow[] {
  const rows = new Map<string, GapRow>();
  for (const cell of coverage) {
    if (cell.state !== 'notCovered' && cell.state !== 'tightened') continue;
    const key = `${cell.trainId}:${cell.productId}:${cell.state}`;
    if (rows.has(key)) continue;
    rows.set(key, {
      train_id: cell.trainId,
      train_name: cell.train,
      product_id: cell.productId,
      product_name: cell.product,
      gap: cell.state,
      proposed_study_type: proposedStudyType(cell.state),
      scope: scopeOf(cell),
    });
  }
  return [...rows.values()];
}

const GAP_COLUMNS = `x(train_id int, train_name text, product_id int, product_name text, gap text,
  proposed_study_type text, scope text)`;

/**
 * Turns the gaps of a completed assessment into Open tasks, in the caller's transaction, with
 * one audit row for the run (the ids it created and carried over).
 *
 * A gap that already has an Open task (from an earlier assessment, or from this one when run
 * again) gets no second task: that task is carried over, its evaluationId set to this
 * assessment (the first one stays in first_evaluation_id), its names and scope refreshed and
 * its due date kept. A gap whose task was Accepted gets none either: its study is planned (issue
 * 12 creates it from the task). A gap whose task was Dismissed gets a new task: the dismissal
 * answered an earlier assessment, and this one asks again. Open tasks whose gap this assessment
 * no longer finds are left as they are, on the assessment that found them last.
 */
export async function createTasksFromGaps(
  tx: Queryable,
  options: {
    actor?: Actor;
    facilityId: number;
    evaluationId: number;
    coverage: TCoverageCell[];
  },
): Promise<{ created: number[]; carriedOver: number[] }> {
  const { facilityId, evaluationId } = options;
  const actor = options.actor ?? SYSTEM;
  const gaps = JSON.stringify(gapRows(options.coverage));
  const carried = await tx.query<{
    id: number;
    train_name: string;
    product_name: string;
    scope: string;
  }>(
    `select t.id, x.train_name, x.product_name, x.scope
       from qualification_tasks t
       join jsonb_to_recordset($3::jsonb) as ${GAP_COLUMNS}
         on t.train_id = x.train_id and t.product_id = x.product_id and t.gap = x.gap
      where t.facility_id = $1 and t.status = 'Open'
        and (t.evaluation_id <> $2 or t.scope <> x.scope or t.train_name <> x.train_name
             or t.product_name <> x.product_name)
      order by t.id
        for update of t`,
    [facilityId, evaluationId, gaps],
  );
  // Carried over as part of this assessment's run: its one audit row below names them.
  for (const task of carried)
    await writeCaused(tx, qualificationTaskType, {
      userId: actor.userId,
      facilityId,
      id: task.id,
      set: {
        evaluation_id: evaluationId,
        train_name: task.train_name,
        product_name: task.product_name,
        scope: task.scope,
      },
    });
  const created = await tx.query<{ id: number }>(
    `insert into qualification_tasks (facility_id, evaluation_id, first_evaluation_id, train_id,
       train_name, product_id, product_name, gap, proposed_study_type, scope, due_date,
       created_by, updated_by)
     select $1, $2, $2, x.train_id, x.train_name, x.product_id, x.product_name, x.gap,
            x.proposed_study_type, x.scope, (now() at time zone 'UTC')::date + $5::int, $3, $3
       from jsonb_to_recordset($4::jsonb) as ${GAP_COLUMNS}
      where not exists (select 1 from qualification_tasks t
                         where t.facility_id = $1 and t.train_id = x.train_id
                           and t.product_id = x.product_id and t.gap = x.gap
                           and t.status in ('Open', 'Accepted'))
      order by x.train_name, x.product_name, x.gap
     -- A run of another transaction made it meanwhile: one Open task per gap still.
     on conflict (facility_id, train_id, product_id, gap) where status = 'Open' do nothing
     returning id`,
    [facilityId, evaluationId, actor.userId, gaps, TASK_DUE_DAYS],
  );
  const result = { created: created.map((r) => r.id), carriedOver: carried.map((r) => r.id) };
  if (result.created.length + result.carriedOver.length > 0) {
    const [facility] = await tx.query<{ plan_id: number }>(
      'select plan_id from facilities where id = $1',
      [facilityId],
    );
    await writeAudit(tx, actor, {
      planId: facility?.plan_id ?? null,
      facilityId,
      domain: 'QualificationTask',
      action: 'Create',
      entityId: evaluationId,
      reason: `Gaps of cleaning assessment ${evaluationId}`,
      newValues: { evaluationId, ...result },
    });
  }
  return result;
}

export interface TaskRow {
  id: number;
  evaluation_id: number;
  train_id: number;
  train_name: string;
  product_id: number;
  product_name: string;
  gap: TGap;
  proposed_study_type: TStudyType;
  scope: string;
  due_date: string;
  status: TQualificationTask['status'];
  justification: string | null;
  decided_by: number | null;
  signer_printed_name: string | null;
  decided_at: Date | string | null;
  version: number;
  studies: { id: number; seq: number; outcome: TStudyOutcome }[];
}

export const TASK_COLUMNS = `t.id, t.evaluation_id, t.train_id, t.train_name, t.product_id,
  t.product_name, t.gap, t.proposed_study_type, t.scope, t.due_date::text as due_date, t.status,
  t.justification, t.decided_by, t.signer_printed_name, t.decided_at, t.version,
  coalesce((select jsonb_agg(jsonb_build_object('id', s.id, 'seq', s.seq, 'outcome', s.outcome)
                             order by s.seq)
              from studies s
             where s.facility_id = t.facility_id and s.origin_kind = 'qualificationTask'
               and s.origin_id = t.id), '[]'::jsonb) as studies`;

export function toTask(row: TaskRow): TQualificationTask {
  return {
    id: row.id,
    evaluationId: row.evaluation_id,
    caseStudyId: row.train_id,
    train: row.train_name,
    product: row.product_name,
    productId: row.product_id,
    gap: row.gap,
    proposedStudyType: row.proposed_study_type,
    scope: row.scope,
    dueDate: row.due_date,
    status: row.status,
    justification: row.justification,
    decidedBy: row.decided_by,
    // The name as it was at signing (21 CFR 11.50), not the user's name today.
    decidedByName: row.signer_printed_name,
    decidedAt: row.decided_at === null ? null : new Date(row.decided_at).toISOString(),
    version: row.version,
    studies: row.studies.map((s) => ({
      id: s.id,
      number: studyNumberOf(s.seq),
      outcome: s.outcome,
    })),
  };
}

/** One task of the facility, or undefined; `lock` takes it for the transaction. */
export async function findTask(
  q: Queryable,
  facilityId: number,
  id: number,
  lock = false,
): Promise<TaskRow | undefined> {
  const [row] = await q.query<TaskRow>(
    `select ${TASK_COLUMNS} from qualification_tasks t where t.facility_id = $1 and t.id = $2
     ${lock ? 'for update' : ''}`,
    [facilityId, id],
  );
  return row;
}

export interface TaskFilter {
  pageNumber: number;
  pageLimit: number;
  search?: string | undefined;
  sortBy?: string | undefined;
  sortOrder?: 'asc' | 'desc' | 'ascend' | 'descend' | undefined;
  evaluationId?: number | undefined;
  status?: TQualificationTask['status'] | undefined;
  trainId?: number | undefined;
}

const SORTABLE = {
  dueDate: 't.due_date',
  product: 't.product_name',
  train: 't.train_name',
  status: 't.status',
  proposedStudyType: 't.proposed_study_type',
};

/** A page of the facility's tasks, open ones first by due date unless sorted otherwise. */
export async function listTasks(
  q: Queryable,
  facilityId: number,
  filter: TaskFilter,
): Promise<{ qualificationTasks: TQualificationTask[]; total: number }> {
  const { limit, offset } = pageWindow(filter);
  const params: SqlValue[] = [
    facilityId,
    filter.evaluationId ?? null,
    filter.status ?? null,
    filter.trainId ?? null,
    likePattern(filter.search),
  ];
  const where = `t.facility_id = $1 and ($2::int is null or t.evaluation_id = $2)
    and ($3::text is null or t.status = $3) and ($4::int is null or t.train_id = $4)
    and ($5::text is null or t.product_name ilike $5 or t.train_name ilike $5 or t.scope ilike $5)`;
  const order = orderBy(
    filter,
    SORTABLE,
    `case t.status when 'Open' then 0 else 1 end, t.due_date`,
  );
  const rows = await q.query<TaskRow>(
    `select ${TASK_COLUMNS} from qualification_tasks t where ${where}
      order by ${order}, t.id limit ${limit} offset ${offset}`,
    params,
  );
  const [count] = await q.query<{ total: number }>(
    `select count(*)::int as total from qualification_tasks t where ${where}`,
    params,
  );
  return { qualificationTasks: rows.map(toTask), total: count!.total };
}
