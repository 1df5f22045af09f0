import type { z } from 'zod';
import { AppError, validationError } from '#core/errors/errors.ts';
import type {
  TStudy,
  TStudyCreate,
  TStudyOrigin,
  ZStudyClose,
  ZStudyEdit,
} from '#core/schemas/verification.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { recordEdit, type ControlledRef } from '#server/records/controlled.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { inTransaction } from '#server/modules/change-assessments/change-assessments.service.ts';
import { findTask } from '#server/modules/cleaning-assessments/qualification-tasks.ts';
import { failedRunPolicyOf } from '#core/verification/study-outcome.ts';
import { getStudy, studyNumberOf } from './studies.read.ts';
import { studySnapshotId } from './study-snapshot.ts';

/*
 * Writes of studies (core/verification/README.md): create (pins the protocol version in force
 * and the limits snapshot), edit of the header, and close. The outcome and consecutive passes
 * are the runs' (server/modules/verification/study-refresh.ts); close only fails a study that
 * has not validated.
 */

export interface Scope {
  planId: number;
  facilityId: number;
}

type Edit = z.infer<typeof ZStudyEdit>;
type Close = z.infer<typeof ZStudyClose>;

export const studyRef = (scope: Scope, id: number): ControlledRef => ({
  ...scope,
  documentType: 'Study',
  documentId: id,
});

const audit = (
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  id: number,
  action: string,
  values: { reason?: string | null; oldValues?: object; newValues?: object },
) =>
  writeAudit(tx, actor, {
    ...scope,
    domain: 'Study',
    action,
    entityId: id,
    reason: values.reason ?? null,
    oldValues: (values.oldValues as Record<string, unknown>) ?? null,
    newValues: (values.newValues as Record<string, unknown>) ?? null,
  });

const originProblem = (message: string) =>
  validationError([{ property: 'origin.id', constraints: { reference: message } }]);

/** An origin must be the facility's; a qualification task must have been accepted. */
async function checkOrigin(q: Queryable, facilityId: number, origin: TStudyOrigin): Promise<void> {
  if (origin.kind === 'qualificationTask') {
    const task = await findTask(q, facilityId, origin.id);
    if (!task) throw originProblem(`No qualification task with id ${origin.id} in this facility`);
    if (task.status !== 'Accepted')
      throw originProblem(
        `Qualification task ${origin.id} is ${task.status}; a study starts from an accepted task`,
      );
  }
  if (origin.kind === 'changeAssessment') {
    const [found] = await q.query(
      'select 1 from change_assessments where facility_id = $1 and id = $2',
      [facilityId, origin.id],
    );
    if (!found) throw originProblem(`No change assessment with id ${origin.id} in this facility`);
  }
}

/** The protocol's version in force: its number and content; 409 when none is approved. */
async function protocolInForce(q: Queryable, facilityId: number, protocolId: number) {
  const [protocol] = await q.query<{ archived: boolean }>(
    'select archived_at is not null as archived from protocols where facility_id = $1 and id = $2',
    [facilityId, protocolId],
  );
  if (!protocol || protocol.archived)
    throw validationError([
      {
        property: 'protocolId',
        constraints: { reference: `No protocol with id ${protocolId} in this facility` },
      },
    ]);
  const [approved] = await q.query<{ version_number: number; content: Record<string, unknown> }>(
    `select version_number, content from controlled_versions
      where facility_id = $1 and document_type = 'Protocol' and document_id = $2
        and status = 'Approved'
      order by version_number desc limit 1`,
    [facilityId, protocolId],
  );
  if (!approved) throw new AppError('TransactionLocked', 'The protocol has no approved version');
  return approved;
}

/** What signers of a study see: its header as saved. */
async function saveContent(tx: Queryable, actor: Actor, scope: Scope, id: number): Promise<void> {
  const [row] = await tx.query<Record<string, unknown> & { seq: number; title: string }>(
    `select seq, title, study_type as "studyType", description, protocol_id as "protocolId",
            protocol_version_number as "protocolVersionNumber",
            limits_snapshot_id as "limitsSnapshotId", failed_run_policy as "failedRunPolicy",
            origin_kind as "originKind",
            origin_id as "originId"
       from studies where id = $1`,
    [id],
  );
  const { seq, ...header } = row!;
  const number = studyNumberOf(seq);
  await recordEdit(
    tx,
    actor,
    studyRef(scope, id),
    { number, ...header },
    `${number} ${row!.title}`,
  );
}

export async function createStudy(
  db: Db,
  actor: Actor,
  scope: Scope,
  body: TStudyCreate,
): Promise<TStudy> {
  const id = await inTransaction(db, async (tx) => {
    const protocol = await protocolInForce(tx, scope.facilityId, body.protocolId);
    await checkOrigin(tx, scope.facilityId, body.origin);
    const snapshotId = await studySnapshotId(
      tx,
      scope.facilityId,
      protocol.content.limitsSnapshotId,
    );
    // One number after another per facility: the facility's row orders concurrent creates.
    await tx.query('select id from facilities where id = $1 for update', [scope.facilityId]);
    const originId = body.origin.kind === 'none' ? null : body.origin.id;
    const [row] = await tx.query<{ id: number; seq: number }>(
      `insert into studies (facility_id, seq, title, study_type, description, protocol_id,
         protocol_version_number, protocol_content, limits_snapshot_id, origin_kind, origin_id,
         created_by, updated_by, failed_run_policy)
       select $1, coalesce(max(seq), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11, $12
         from studies where facility_id = $1
       returning id, seq`,
      [
        scope.facilityId,
        body.title,
        body.studyType,
        body.description,
        body.protocolId,
        protocol.version_number,
        JSON.stringify(protocol.content),
        snapshotId,
        body.origin.kind,
        originId,
        actor.userId,
        failedRunPolicyOf(protocol.content.failedRunPolicy, body.studyType),
      ],
    );
    await saveContent(tx, actor, scope, row!.id);
    await audit(tx, actor, scope, row!.id, 'Create', {
      newValues: {
        number: studyNumberOf(row!.seq),
        ...body,
        protocolVersionNumber: protocol.version_number,
        limitsSnapshotId: snapshotId,
        failedRunPolicy: failedRunPolicyOf(protocol.content.failedRunPolicy, body.studyType),
      },
    });
    return row!.id;
  });
  return getStudy(db, scope.facilityId, id);
}

interface Locked {
  id: number;
  seq: number;
  version: number;
  title: string;
  description: string;
  outcome: TStudy['outcome'];
  closed_at: Date | null;
}

/** The study, locked, at the version the change was made from and not closed. */
async function openStudy(tx: Queryable, scope: Scope, id: number, version: number) {
  const [row] = await tx.query<Locked>(
    `select id, seq, version, title, description, outcome, closed_at from studies
      where facility_id = $1 and id = $2 for update`,
    [scope.facilityId, id],
  );
  if (!row) throw new AppError('NotFoundError', `Study ${id} was not found`);
  if (row.version !== version) throw new AppError('VersionConflictError');
  if (row.closed_at) throw new AppError('TransactionLocked', `${studyNumberOf(row.seq)} is closed`);
  return row;
}

export async function editStudy(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  body: Edit,
): Promise<TStudy> {
  await inTransaction(db, async (tx) => {
    const before = await openStudy(tx, scope, id, body.version);
    const after = {
      title: body.title ?? before.title,
      description: body.description ?? before.description,
    };
    await tx.query(
      `update studies set title = $2, description = $3, version = version + 1,
              updated_at = now(), updated_by = $4
        where id = $1`,
      [id, after.title, after.description, actor.userId],
    );
    // Refused while the study is being reviewed or approved; after approval, version N+1.
    await saveContent(tx, actor, scope, id);
    await audit(tx, actor, scope, id, 'Update', {
      reason: body.reason,
      oldValues: { title: before.title, description: before.description },
      newValues: after,
    });
  });
  return getStudy(db, scope.facilityId, id);
}

/** Closes the study: one that has not validated is Failed (spec §4); the reason is kept. */
export async function closeStudy(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  body: Close,
): Promise<TStudy> {
  await inTransaction(db, async (tx) => {
    const before = await openStudy(tx, scope, id, body.version);
    const outcome = before.outcome === 'Validated' ? 'Validated' : 'Failed';
    await tx.query(
      `update studies set closed_at = now(), closed_by = $2, close_reason = $3, outcome = $4,
              version = version + 1, updated_at = now(), updated_by = $2
        where id = $1`,
      [id, actor.userId, body.reason, outcome],
    );
    await audit(tx, actor, scope, id, 'Close', {
      reason: body.reason,
      oldValues: { outcome: before.outcome, closedAt: null },
      newValues: { outcome, closed: true },
    });
  });
  return getStudy(db, scope.facilityId, id);
}
