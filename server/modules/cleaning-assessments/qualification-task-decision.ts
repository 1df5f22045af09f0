import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { AppError, validationError } from '#core/errors/errors.ts';
import type {
  TQualificationTask,
  ZTaskAction,
} from '#core/schemas/cleaning-assessments.schemas.ts';
import type { Db } from '#server/db/db.ts';
import type { Scope } from '#server/entities/entity-store.ts';
import { canonicalJson } from '#server/records/controlled.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { NOW, openRecord, writeRecord } from '#server/records/write-record.ts';
import type { KeyConfig } from '../active-directory/active-directory.settings.ts';
import { verifySigner } from '../auth/signing-password.ts';
import { findTask, qualificationTaskType, toTask } from './qualification-tasks.ts';

export type TTaskAction = z.infer<typeof ZTaskAction>;

/** The meaning a decision carries as an electronic signature (21 CFR 11.50(a)(3)). */
export const TASK_MEANINGS = {
  accept: 'Accepted: the proposed study is to be performed',
  dismiss: 'Dismissed: no study is needed, for the justification given',
} as const;

const STATUS_OF = { accept: 'Accepted', dismiss: 'Dismissed' } as const;

const utcToday = () => new Date().toISOString().slice(0, 10);

function notFound(id: number): never {
  throw new AppError('NotFoundError', `Qualification task ${id} was not found in this facility`);
}

/**
 * `POST {F}/qualification-task/task/{id}`: accepts or dismisses an Open task, signed by the
 * user's own password (checked and counted toward the lockout exactly as a signature's,
 * modules/auth/signing-password.ts). Accepting may set the study type and due date (not in the
 * past, UTC) the task proposed; dismissing needs a justification, and keeps what was proposed. A task is decided once: a decided one is 409
 * TransactionLocked, a stale version 409 VersionConflictError. The decision, the signer's
 * printed name, the meaning and the hash of what was decided on are kept on the task, with one
 * audit row, in one transaction.
 */
export async function decideTask(
  db: Db,
  config: KeyConfig,
  actor: Actor,
  scope: Scope,
  id: number,
  action: TTaskAction,
): Promise<TQualificationTask> {
  const justification = action.justification || null;
  if (action.action === 'dismiss' && !justification)
    throw validationError([
      {
        property: 'justification',
        constraints: { required: 'Dismissing a task needs a justification' },
      },
    ]);
  if (action.action === 'accept' && action.dueDate && action.dueDate < utcToday())
    throw validationError([
      { property: 'dueDate', constraints: { future: 'The due date cannot be in the past' } },
    ]);
  if (!(await findTask(db, scope.facilityId, id))) notFound(id);
  await verifySigner(db, config, actor, actor.userId!, action);
  return db.transaction(async (tx) => {
    // Locked, still Open (a decided task is 409 TransactionLocked), at the version decided on.
    await openRecord(tx, qualificationTaskType, actor, scope, id, action.version);
    const before = (await findTask(tx, scope.facilityId, id)) ?? notFound(id);
    const accepting = action.action === 'accept';
    const decided = {
      proposedStudyType:
        (accepting ? action.proposedStudyType : undefined) ?? before.proposed_study_type,
      dueDate: (accepting ? action.dueDate : undefined) ?? before.due_date,
      status: STATUS_OF[action.action],
      justification,
    };
    const meaning = TASK_MEANINGS[action.action];
    const hash = createHash('sha256')
      .update(
        canonicalJson({
          facilityId: scope.facilityId,
          taskId: id,
          evaluationId: before.evaluation_id,
          trainId: before.train_id,
          productId: before.product_id,
          gap: before.gap,
          scope: before.scope,
          meaning,
          ...decided,
        }),
      )
      .digest('hex');
    // The name as it is at signing (21 CFR 11.50(a)(1)), kept with the decision.
    const [signer] = await tx.query<{ name: string }>(
      `select first_name || ' ' || last_name as name from users where id = $1`,
      [actor.userId],
    );
    await writeRecord(tx, qualificationTaskType, {
      actor,
      scope,
      row: before,
      set: {
        status: decided.status,
        justification,
        proposed_study_type: decided.proposedStudyType,
        due_date: decided.dueDate,
        decided_by: actor.userId,
        decided_at: NOW,
        signer_printed_name: signer!.name,
        signature_meaning: meaning,
        signed_content_hash: hash,
      },
      audit: {
        action: accepting ? 'Accept' : 'Dismiss',
        reason: justification,
        oldValues: {
          status: before.status,
          proposedStudyType: before.proposed_study_type,
          dueDate: before.due_date,
        },
        newValues: {
          ...decided,
          evaluationId: before.evaluation_id,
          train: before.train_name,
          product: before.product_name,
          meaning,
          printedName: signer!.name,
          contentHash: hash,
        },
      },
    });
    return toTask((await findTask(tx, scope.facilityId, id))!);
  });
}
