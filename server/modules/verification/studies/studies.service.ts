import type { z } from 'zod';
import { AppError, validationError } from '#core/errors/errors.ts';
import type {
  TStudy,
  TStudyCreate,
  TStudyOrigin,
  ZStudyClose,
  ZStudyEdit,
} from '#core/schemas/verification.schemas.ts';
import { studiesDecl } from '#core/entities/defs/verification.def.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import {
  createRecord,
  NOW,
  openRecord,
  writeRecord,
  type RecordType,
} from '#server/records/write-record.ts';
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

const originProblem = (message: string) =>
  validationError([{ property: 'origin.id', constraints: { reference: message } }]);

/** An origin must be the facility's; a qualification task must have been accepted. */
async function checkOrigin(q: Queryable, facilityId: number, origin: TStudyOrigin): Promise<void> {
  if (origin.kind === 'qualificationTask') {
    const task = await findTask(q, facilityId, origin.id);
    if (!task) throw originProblem('No such qualification task in this facility');
    if (task.status !== 'Accepted')
      throw originProblem(
        `The qualification task is ${task.status.toLowerCase()}; a study starts from an accepted task`,
      );
  }
  if (origin.kind === 'changeAssessment') {
    const [found] = await q.query(
      'select 1 from change_assessments where facility_id = $1 and id = $2',
      [facilityId, origin.id],
    );
    if (!found) throw originProblem('No such change assessment in this facility');
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
        constraints: { reference: 'No such protocol in this facility (archived or removed)' },
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
async function studyContent(tx: Queryable, id: number) {
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
  return { content: { number, ...header }, title: `${number} ${row!.title}` };
}

/**
 * A study through the one write path: its header is the content its signers see; its outcome
 * is its runs' (study-refresh.ts), written as a consequence of theirs.
 */
export const studyType: RecordType<typeof studiesDecl.domain> = {
  decl: studiesDecl,
  hooks: { content: (tx, _scope, id) => studyContent(tx, id) },
};

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
    const originId = body.origin.kind === 'none' ? null : body.origin.id;
    const failedRunPolicy = failedRunPolicyOf(protocol.content.failedRunPolicy, body.studyType);
    const row = await createRecord(tx, studyType, {
      actor,
      scope,
      values: {
        title: body.title,
        study_type: body.studyType,
        description: body.description,
        protocol_id: body.protocolId,
        protocol_version_number: protocol.version_number,
        protocol_content: JSON.stringify(protocol.content),
        limits_snapshot_id: snapshotId,
        origin_kind: body.origin.kind,
        origin_id: originId,
        failed_run_policy: failedRunPolicy,
      },
      audit: (created) => ({
        newValues: {
          number: studyNumberOf(created.seq as number),
          ...body,
          protocolVersionNumber: protocol.version_number,
          limitsSnapshotId: snapshotId,
          failedRunPolicy,
        },
      }),
    });
    return row.id as number;
  });
  return getStudy(db, scope.facilityId, id);
}

/**
 * The study, locked, at the version the change was made from (409 VersionConflictError), and
 * not closed (409 TransactionLocked).
 */
async function openStudy(tx: Queryable, actor: Actor, scope: Scope, id: number, version: number) {
  const row = await openRecord(tx, studyType, actor, scope, id, version);
  if (row.closed_at)
    throw new AppError('TransactionLocked', `${studyNumberOf(row.seq as number)} is closed`);
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
    const before = await openStudy(tx, actor, scope, id, body.version);
    const after = {
      title: body.title ?? before.title,
      description: body.description ?? before.description,
    };
    // Refused while the study is being reviewed or approved; after approval, version N+1.
    await writeRecord(tx, studyType, {
      actor,
      scope,
      row: before,
      set: after,
      audit: {
        action: 'Update',
        reason: body.reason,
        oldValues: { title: before.title, description: before.description },
        newValues: after,
      },
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
    const before = await openStudy(tx, actor, scope, id, body.version);
    const outcome = before.outcome === 'Validated' ? 'Validated' : 'Failed';
    // The header its signers see is unchanged: an approved study starts no new version.
    await writeRecord(tx, studyType, {
      actor,
      scope,
      row: before,
      set: { closed_at: NOW, closed_by: actor.userId, close_reason: body.reason, outcome },
      audit: {
        action: 'Close',
        reason: body.reason,
        oldValues: { outcome: before.outcome, closedAt: null },
        newValues: { outcome, closed: true },
      },
      contentUnchanged: true,
    });
  });
  return getStudy(db, scope.facilityId, id);
}
