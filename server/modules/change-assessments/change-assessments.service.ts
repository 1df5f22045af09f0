import { AppError, validationError } from '#core/errors/errors.ts';
import type { z } from 'zod';
import type {
  TChangeAssessment,
  ZChangeAssessmentCreate,
  ZChangeAssessmentEdit,
  ZDecisionsBody,
  TStagedChangeBody,
} from '#core/schemas/change-assessments.schemas.ts';
import { changeAssessmentsDecl } from '#core/entities/defs/assessments.def.ts';
import { recordAfterRollback, type Db, type Queryable } from '#server/db/db.ts';
import { ControlledRefusal, controlledState } from '#server/records/controlled.ts';
import type { Actor } from '#server/db/audit-write.ts';
import {
  createRecord,
  openRecord,
  writeRecord,
  type Assigned,
  type RecordAudit,
  type RecordType,
  type StoredRow,
  NOW,
} from '#server/records/write-record.ts';
import { changeCurrent, getChangeAssessment, numberOf } from './change-assessments.read.ts';
import { assessmentContent, refOf, type Scope } from './change-content.ts';
import { stagedTarget, type Change } from './staged-targets.ts';

/*
 * Writes of change assessments (core/assessments/README.md): the header, the staged change set
 * (each change tried on the real write path in a rolled-back savepoint), decisions and cancel.
 * Evaluate is in change-evaluate.ts, approval in change-approval.ts. Every write goes through
 * the one write path (server/records/write-record.ts).
 */

/** A change assessment: its working content is what its signers see (change-content.ts). */
export const changeAssessmentType: RecordType<typeof changeAssessmentsDecl.domain> = {
  decl: changeAssessmentsDecl,
  hooks: { content: (tx, scope, id) => assessmentContent(tx, scope, id) },
};

type Create = z.infer<typeof ZChangeAssessmentCreate>;
type Edit = z.infer<typeof ZChangeAssessmentEdit>;
type Decisions = z.infer<typeof ZDecisionsBody>;

/** Runs `fn` in one transaction; a refusal of a controlled record is audited after it. */
export async function inTransaction<T>(db: Db, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(fn);
  } catch (error) {
    await recordAfterRollback(error, db);
    throw error;
  }
}

/** A write of an assessment in one transaction, answered with the assessment as it is then. */
async function written(
  db: Db,
  scope: Scope,
  id: number,
  fn: (tx: Queryable) => Promise<void>,
): Promise<TChangeAssessment> {
  await inTransaction(db, fn);
  return getChangeAssessment(db, scope.facilityId, id);
}

/** Runs `fn` and undoes whatever it wrote (a savepoint rolled back), keeping its answer. */
export async function rolledBack<T>(tx: Queryable, fn: () => Promise<T>): Promise<T> {
  await tx.query('savepoint change_trial');
  try {
    return await fn();
  } finally {
    await tx.query('rollback to savepoint change_trial');
  }
}

async function checkMoc(q: Queryable, facilityId: number, mocId: number | null): Promise<void> {
  if (mocId === null) return;
  const [row] = await q.query(
    `select 1 from moc_records where facility_id = $1 and id = $2 and archived_at is null`,
    [facilityId, mocId],
  );
  if (!row)
    throw validationError([
      {
        property: 'mocId',
        constraints: { reference: 'No such change-of-control record in this facility' },
      },
    ]);
}

export async function createChangeAssessment(
  db: Db,
  actor: Actor,
  scope: Scope,
  body: Create,
): Promise<TChangeAssessment> {
  const id = await inTransaction(db, async (tx) => {
    await checkMoc(tx, scope.facilityId, body.mocId);
    const row = await createRecord(tx, changeAssessmentType, {
      actor,
      scope,
      values: {
        title: body.title,
        change_type: body.changeType,
        description: body.description,
        moc_id: body.mocId,
      },
      audit: (created) => ({
        reason: body.reason ?? null,
        newValues: { number: numberOf(created.seq as number), ...body, reason: undefined },
      }),
    });
    return row.id as number;
  });
  return getChangeAssessment(db, scope.facilityId, id);
}

type Locked = StoredRow & {
  id: number;
  seq: number;
  version: number;
  cancelled_at: Date | null;
  change_set_version: number;
  title: string;
  change_type: string;
  description: string;
  moc_id: number | null;
};

/**
 * The assessment, locked; 404 when it is not the facility's, 409 when `version` (the one the
 * edit was made from) is stale.
 */
export async function lockedAssessment(
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  id: number,
  version?: number,
): Promise<Locked> {
  return (await openRecord(tx, changeAssessmentType, actor, scope, id, version)) as Locked;
}

/**
 * The assessment, locked for an edit of its header, change set, evaluation or decisions: at the
 * version the edit was made from, not cancelled, and being built (a rejection returns it there).
 */
export async function editableAssessment(
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  id: number,
  version: number,
): Promise<Locked> {
  const row = await lockedAssessment(tx, actor, scope, id, version);
  const number = numberOf(row.seq);
  if (row.cancelled_at)
    throw new AppError('TransactionLocked', `${number} is cancelled: it changes nothing any more`);
  const state = await controlledState(tx, refOf(scope, id));
  if (state && state.status !== 'BeingBuilt') {
    const why =
      state.status === 'BeingReviewed'
        ? 'being reviewed'
        : state.status === 'BeingApproved'
          ? 'being approved'
          : 'approved';
    throw new ControlledRefusal(
      'TransactionLocked',
      `${number} is locked while version ${state.versionNumber} is ${why}${why === 'approved' ? '' : '; reject it to edit it again'}.`,
      actor,
      refOf(scope, id),
      'Edit',
    );
  }
  return row;
}

export interface AssessmentWrite {
  /** Columns of the assessment and their new values. */
  set?: Readonly<Record<string, Assigned>>;
  /** The change set changed: its version moves on too (an evaluation of the older one is stale). */
  changeSet?: true;
  audit: RecordAudit<typeof changeAssessmentsDecl.domain>;
}

/**
 * A write of a locked assessment in one statement (the kept versions show one version per
 * write): its next version, its content saved as the working version, the audit row.
 */
export async function writeAssessment(
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  row: Locked,
  { set = {}, changeSet, audit }: AssessmentWrite,
): Promise<void> {
  const columns: Record<string, Assigned> = { ...set };
  if (changeSet) columns.change_set_version = row.change_set_version + 1;
  await writeRecord(tx, changeAssessmentType, { actor, scope, row, set: columns, audit });
}

export async function editChangeAssessment(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  body: Edit,
): Promise<TChangeAssessment> {
  return written(db, scope, id, async (tx) => {
    const before = await editableAssessment(tx, actor, scope, id, body.version);
    await checkMoc(tx, scope.facilityId, body.mocId);
    await writeAssessment(tx, actor, scope, before, {
      set: {
        title: body.title,
        change_type: body.changeType,
        description: body.description,
        moc_id: body.mocId,
      },
      audit: {
        action: 'Update',
        reason: body.reason,
        oldValues: {
          title: before.title,
          changeType: before.change_type,
          description: before.description,
          mocId: before.moc_id,
        },
        newValues: {
          title: body.title,
          changeType: body.changeType,
          description: body.description,
          mocId: body.mocId,
        },
      },
    });
  });
}

interface ChangeRow extends Change {
  id: number;
  position: number;
}

const CHANGES = `select id, position, op, entity, record_id as "recordId",
    record_version as "recordVersion", "values", reason
  from change_assessment_changes where assessment_id = $1 and removed_at is null`;

/** The staged changes in the order they apply. */
export async function changesOf(tx: Queryable, id: number): Promise<ChangeRow[]> {
  return tx.query<ChangeRow>(`${CHANGES} order by position, id`, [id]);
}

/** Why the change set cannot be applied as staged (a record moved since), or null. */
export async function staleChange(
  tx: Queryable,
  facilityId: number,
  number: string,
  changes: readonly ChangeRow[],
): Promise<string | null> {
  for (const change of changes) {
    const current = await changeCurrent(tx, facilityId, {
      entity: change.entity,
      record_id: change.recordId,
      record_version: change.recordVersion,
    });
    if (!current)
      return `Change ${change.position} of ${number} is stale: its record changed since it was staged; stage it again`;
  }
  return null;
}

export interface ApplyAs {
  actor: Actor;
  scope: Scope;
  dbKind: Db['kind'];
  /**
   * Set by the approval: reasons name the assessment and policy edits go in force, their audit
   * entries sealed with `key` (the signatures' key).
   */
  approvedAs?: { id: number; number: string; key: Buffer } | undefined;
}

/** Applies changes in order on the real write path, in the caller's transaction. */
export async function applyChanges(
  tx: Queryable,
  changes: readonly Change[],
  { actor, scope, dbKind, approvedAs }: ApplyAs,
  putPoliciesInForce = approvedAs !== undefined,
): Promise<void> {
  // A record edited again by a later change of the set: that change was staged from the same
  // version as the first (checked for staleness), and applies over the set's own edit.
  const touched = new Set<string>();
  for (const staged of changes) {
    const key = `${staged.entity}:${staged.recordId}`;
    const again = staged.recordId !== null && touched.has(key);
    if (staged.recordId !== null) touched.add(key);
    const change = again ? { ...staged, recordVersion: null } : staged;
    await stagedTarget(change.entity).apply(tx, change, {
      actor,
      scope,
      dbKind,
      reason: approvedAs ? `${approvedAs.number}: ${change.reason}` : change.reason,
      approval:
        putPoliciesInForce && approvedAs
          ? {
              by: {
                documentType: 'ChangeAssessment',
                documentId: approvedAs.id,
                label: approvedAs.number,
              },
              key: approvedAs.key,
            }
          : undefined,
    });
  }
}

/**
 * A change checked as the direct edit would be: its values against the direct call's body
 * schema, then the write itself after the changes before it, all rolled back. Answers the
 * change as it is stored (the record's version it was made from, its label).
 */
async function checkedChange(
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  dbKind: Db['kind'],
  before: readonly Change[],
  sent: Omit<Change, 'recordVersion'> & { recordVersion: number | null },
): Promise<Change & { label: string }> {
  const target = stagedTarget(sent.entity);
  let change: Change = { ...sent };
  if (change.op !== 'create' && change.recordId !== null) {
    const now = await target.currentVersion(tx, scope.facilityId, change.recordId);
    if (change.recordVersion !== null && change.recordVersion !== now)
      throw new AppError('VersionConflictError');
    change = { ...change, recordVersion: now };
  }
  change = { ...change, values: target.validate(change) };
  const label = await target.label(tx, scope.facilityId, change);
  await rolledBack(tx, () => applyChanges(tx, [...before, change], { actor, scope, dbKind }));
  return { ...change, label };
}

export async function stageChange(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  body: TStagedChangeBody,
): Promise<TChangeAssessment> {
  return written(db, scope, id, async (tx) => {
    const assessment = await editableAssessment(tx, actor, scope, id, body.version);
    const before = await changesOf(tx, id);
    const change = await checkedChange(tx, actor, scope, db.kind, before, {
      op: body.op,
      entity: body.entity,
      recordId: body.recordId ?? null,
      recordVersion: body.recordVersion ?? null,
      values: body.values,
      reason: body.reason,
    });
    const position = (before.at(-1)?.position ?? 0) + 1;
    const [row] = await tx.query<{ id: number }>(
      `insert into change_assessment_changes (assessment_id, facility_id, position, op, entity,
         record_id, record_version, "values", reason, label, staged_by, updated_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) returning id`,
      [
        id,
        scope.facilityId,
        position,
        change.op,
        change.entity,
        change.recordId,
        change.recordVersion,
        JSON.stringify(change.values),
        change.reason,
        change.label,
        actor.userId,
      ],
    );
    await writeAssessment(tx, actor, scope, assessment, {
      changeSet: true,
      audit: {
        action: 'Stage',
        reason: change.reason,
        newValues: { changeId: row!.id, position, ...change },
      },
    });
  });
}

/** A staged change of the assessment (for its permission and its edit). */
export async function stagedChangeOf(
  q: Queryable,
  facilityId: number,
  id: number,
  changeId: number,
): Promise<ChangeRow> {
  const [row] = await q.query<ChangeRow>(`${CHANGES} and facility_id = $2 and id = $3`, [
    id,
    facilityId,
    changeId,
  ]);
  if (!row) throw new AppError('NotFoundError', `Staged change ${changeId} was not found`);
  return row;
}

/** New values for a staged change, checked after the changes before it, from the record as now. */
export async function editStagedChange(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  {
    changeId,
    ...body
  }: { changeId: number; values: Record<string, unknown>; reason: string; version: number },
): Promise<TChangeAssessment> {
  return written(db, scope, id, async (tx) => {
    const assessment = await editableAssessment(tx, actor, scope, id, body.version);
    const all = await changesOf(tx, id);
    const old = all.find((c) => c.id === changeId);
    if (!old) throw new AppError('NotFoundError', `Staged change ${changeId} was not found`);
    const change = await checkedChange(
      tx,
      actor,
      scope,
      db.kind,
      all.filter((c) => c.position < old.position),
      { ...old, values: body.values, reason: body.reason, recordVersion: null },
    );
    await tx.query(
      `update change_assessment_changes
          set "values" = $2, reason = $3, label = $4, record_version = $5, updated_by = $6,
              updated_at = now()
        where id = $1`,
      [
        changeId,
        JSON.stringify(change.values),
        change.reason,
        change.label,
        change.recordVersion,
        actor.userId,
      ],
    );
    await writeAssessment(tx, actor, scope, assessment, {
      changeSet: true,
      audit: {
        action: 'StageEdit',
        reason: body.reason,
        oldValues: { changeId, values: old.values, recordVersion: old.recordVersion },
        newValues: { changeId, values: change.values, recordVersion: change.recordVersion },
      },
    });
  });
}

export async function unstageChange(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  { changeId, ...query }: { changeId: number; reason: string; version: number },
): Promise<TChangeAssessment> {
  return written(db, scope, id, async (tx) => {
    const assessment = await editableAssessment(tx, actor, scope, id, query.version);
    const old = await stagedChangeOf(tx, scope.facilityId, id, changeId);
    await tx.query(
      `update change_assessment_changes
          set removed_at = now(), removed_by = $2, removed_reason = $3 where id = $1`,
      [changeId, actor.userId, query.reason],
    );
    await writeAssessment(tx, actor, scope, assessment, {
      changeSet: true,
      audit: { action: 'Unstage', reason: query.reason, oldValues: { changeId, ...old } },
    });
  });
}

/** A decision with its justification per impact item of the latest evaluation. */
export async function decide(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  body: Decisions,
): Promise<TChangeAssessment> {
  return written(db, scope, id, async (tx) => {
    const assessment = await editableAssessment(tx, actor, scope, id, body.version);
    const [evaluation] = await tx.query<{ keys: string[] }>(
      `select array(select i->>'key' from json_array_elements(items) i) as keys
         from change_assessment_evaluations where assessment_id = $1`,
      [id],
    );
    if (!evaluation)
      throw new AppError('TransactionLocked', 'Evaluate the change before deciding on its impact');
    const known = new Set(evaluation.keys);
    const unknown = body.decisions.findIndex((d) => !known.has(d.key));
    if (unknown >= 0)
      throw validationError([
        {
          property: `decisions[${unknown}].key`,
          constraints: { reference: 'is not an item of the latest evaluation' },
        },
      ]);
    for (const d of body.decisions) {
      await tx.query(
        `insert into change_assessment_decisions (assessment_id, facility_id, item_key, decision,
           justification, decided_by)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (assessment_id, item_key) do update
           set decision = excluded.decision, justification = excluded.justification,
               decided_by = excluded.decided_by, decided_at = now()`,
        [id, scope.facilityId, d.key, d.decision, d.justification, actor.userId],
      );
    }
    await writeAssessment(tx, actor, scope, assessment, {
      audit: { action: 'Decide', newValues: { decisions: body.decisions } },
    });
  });
}

/** Cancel, until approved: the assessment changes nothing, ever. */
export async function cancelChangeAssessment(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  body: { reason: string; version: number },
): Promise<TChangeAssessment> {
  return written(db, scope, id, async (tx) => {
    const row = await lockedAssessment(tx, actor, scope, id, body.version);
    const number = numberOf(row.seq);
    if (row.cancelled_at)
      throw new AppError('NothingToChangeError', `${number} is already cancelled`);
    const state = await controlledState(tx, refOf(scope, id));
    if (state?.status === 'Approved' || state?.status === 'Deprecated')
      throw new AppError('TransactionLocked', `${number} is approved: its changes are applied`);
    // What its signers see does not change: a version under review stays as it was.
    await writeRecord(tx, changeAssessmentType, {
      actor,
      scope,
      row,
      set: { cancelled_at: NOW, cancelled_by: actor.userId, cancel_reason: body.reason },
      audit: { action: 'Cancel', reason: body.reason, newValues: { cancelled: true } },
      contentUnchanged: true,
    });
  });
}
