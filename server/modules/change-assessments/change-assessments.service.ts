import { AppError, validationError } from '#core/errors/errors.ts';
import type { z } from 'zod';
import type {
  TChangeAssessment,
  ZChangeAssessmentCreate,
  ZChangeAssessmentEdit,
  ZDecisionsBody,
  TStagedChangeBody,
} from '#core/schemas/change-assessments.schemas.ts';
import { recordAfterRollback, type Db, type Queryable } from '#server/db/db.ts';
import { ControlledRefusal, controlledState } from '#server/records/controlled.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { changeCurrent, getChangeAssessment, numberOf } from './change-assessments.read.ts';
import { refOf, saveContent, type Scope } from './change-content.ts';
import { stagedTarget, type Change } from './staged-targets.ts';

/*
 * Writes of change assessments (core/assessments/README.md): the header, the staged change set
 * (each change tried on the real write path in a rolled-back savepoint), decisions and cancel.
 * Evaluate is in change-evaluate.ts, approval in change-approval.ts.
 */

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
      { property: 'mocId', constraints: { reference: `No change-of-control record ${mocId}` } },
    ]);
}

const audit = (
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  id: number,
  action: string,
  values: { reason?: string | null; oldValues?: object; newValues?: object },
) =>
  writeAudit(tx, actor, {
    planId: scope.planId,
    facilityId: scope.facilityId,
    domain: 'ChangeAssessment',
    action,
    entityId: id,
    reason: values.reason ?? null,
    oldValues: (values.oldValues as Record<string, unknown>) ?? null,
    newValues: (values.newValues as Record<string, unknown>) ?? null,
  });

export async function createChangeAssessment(
  db: Db,
  actor: Actor,
  scope: Scope,
  body: Create,
): Promise<TChangeAssessment> {
  const id = await inTransaction(db, async (tx) => {
    await checkMoc(tx, scope.facilityId, body.mocId);
    // One number after another per facility: the facility's row orders concurrent creates.
    await tx.query(`select id from facilities where id = $1 for update`, [scope.facilityId]);
    const [row] = await tx.query<{ id: number; seq: number }>(
      `insert into change_assessments (facility_id, seq, title, change_type, description, moc_id,
         created_by, updated_by)
       select $1, coalesce(max(seq), 0) + 1, $2, $3, $4, $5, $6, $6
         from change_assessments where facility_id = $1
       returning id, seq`,
      [scope.facilityId, body.title, body.changeType, body.description, body.mocId, actor.userId],
    );
    await saveContent(tx, actor, scope, row!.id);
    await audit(tx, actor, scope, row!.id, 'Create', {
      reason: body.reason ?? null,
      newValues: { number: numberOf(row!.seq), ...body, reason: undefined },
    });
    return row!.id;
  });
  return getChangeAssessment(db, scope.facilityId, id);
}

interface Locked {
  id: number;
  seq: number;
  version: number;
  cancelled_at: Date | null;
  change_set_version: number;
  title: string;
  change_type: string;
  description: string;
  moc_id: number | null;
}

/** The assessment, locked; 404 when it is not the facility's. */
export async function lockedAssessment(
  tx: Queryable,
  facilityId: number,
  id: number,
): Promise<Locked> {
  const [row] = await tx.query<Locked>(
    `select id, seq, version, cancelled_at, change_set_version, title, change_type, description,
            moc_id
       from change_assessments where facility_id = $1 and id = $2
        for update`,
    [facilityId, id],
  );
  if (!row) throw new AppError('NotFoundError', `Change assessment ${id} was not found`);
  return row;
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
  const row = await lockedAssessment(tx, scope.facilityId, id);
  if (row.version !== version) throw new AppError('VersionConflictError');
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

/** After a write: the next version of the assessment (and of its change set), and its content. */
export async function touch(
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  id: number,
  changeSet: boolean,
): Promise<void> {
  await tx.query(
    `update change_assessments
        set version = version + 1, updated_at = now(), updated_by = $2,
            change_set_version = change_set_version + $3
      where id = $1`,
    [id, actor.userId, changeSet ? 1 : 0],
  );
  await saveContent(tx, actor, scope, id);
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
    // One statement, so the kept versions show one version per edit.
    await tx.query(
      `update change_assessments set title = $2, change_type = $3, description = $4, moc_id = $5,
              version = version + 1, updated_at = now(), updated_by = $6
        where id = $1`,
      [id, body.title, body.changeType, body.description, body.mocId, actor.userId],
    );
    await saveContent(tx, actor, scope, id);
    await audit(tx, actor, scope, id, 'Update', {
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
  /** Set by the approval: reasons name the assessment and policy edits go in force. */
  approvedAs?: { id: number; number: string } | undefined;
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
      approvedBy:
        putPoliciesInForce && approvedAs
          ? {
              documentType: 'ChangeAssessment',
              documentId: approvedAs.id,
              label: approvedAs.number,
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
    await editableAssessment(tx, actor, scope, id, body.version);
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
    await touch(tx, actor, scope, id, true);
    await audit(tx, actor, scope, id, 'Stage', {
      reason: change.reason,
      newValues: { changeId: row!.id, position, ...change },
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
    await editableAssessment(tx, actor, scope, id, body.version);
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
    await touch(tx, actor, scope, id, true);
    await audit(tx, actor, scope, id, 'StageEdit', {
      reason: body.reason,
      oldValues: { changeId, values: old.values, recordVersion: old.recordVersion },
      newValues: { changeId, values: change.values, recordVersion: change.recordVersion },
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
    await editableAssessment(tx, actor, scope, id, query.version);
    const old = await stagedChangeOf(tx, scope.facilityId, id, changeId);
    await tx.query(
      `update change_assessment_changes
          set removed_at = now(), removed_by = $2, removed_reason = $3 where id = $1`,
      [changeId, actor.userId, query.reason],
    );
    await touch(tx, actor, scope, id, true);
    await audit(tx, actor, scope, id, 'Unstage', {
      reason: query.reason,
      oldValues: { changeId, ...old },
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
    await editableAssessment(tx, actor, scope, id, body.version);
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
    await touch(tx, actor, scope, id, false);
    await audit(tx, actor, scope, id, 'Decide', { newValues: { decisions: body.decisions } });
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
    const row = await lockedAssessment(tx, scope.facilityId, id);
    if (row.version !== body.version) throw new AppError('VersionConflictError');
    const number = numberOf(row.seq);
    if (row.cancelled_at)
      throw new AppError('NothingToChangeError', `${number} is already cancelled`);
    const state = await controlledState(tx, refOf(scope, id));
    if (state?.status === 'Approved' || state?.status === 'Deprecated')
      throw new AppError('TransactionLocked', `${number} is approved: its changes are applied`);
    await tx.query(
      `update change_assessments
          set cancelled_at = now(), cancelled_by = $2, cancel_reason = $3,
              version = version + 1, updated_at = now(), updated_by = $2
        where id = $1`,
      [id, actor.userId, body.reason],
    );
    await audit(tx, actor, scope, id, 'Cancel', {
      reason: body.reason,
      newValues: { cancelled: true },
    });
  });
}
