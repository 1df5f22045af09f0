import { printChangeAssessment } from './change-assessment-print.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import {
  ControlledRefusal,
  registerDocumentType,
  type ApprovedContext,
} from '#server/records/controlled.ts';
import { writeRecord } from '#server/records/write-record.ts';
import { emitRecordEvent } from '#server/records/record-events.ts';
import { storeLimitsSnapshot } from '../policies/policy-approval.ts';
import { assessmentSummaries, numberOf } from './change-assessments.read.ts';
import {
  applyChanges,
  changeAssessmentType,
  changesOf,
  lockedAssessment,
  staleChange,
} from './change-assessments.service.ts';

/*
 * ChangeAssessment as a controlled document type: Submit needs a current evaluation with a
 * decision on every item; the approval applies the change set in the signature's transaction
 * and puts a limits snapshot in force, whose id the Approve signature carries.
 */

async function refuseUnlessOpen(tx: Queryable, context: ApprovedContext, attempted: string) {
  const { ref, actor } = context;
  const scope = { planId: ref.planId, facilityId: ref.facilityId };
  const row = await lockedAssessment(tx, actor, scope, ref.documentId);
  const number = numberOf(row.seq);
  const refuse = (why: string): never => {
    throw new ControlledRefusal('TransactionLocked', why, actor, ref, attempted);
  };
  if (row.cancelled_at) refuse(`${number} is cancelled: it changes nothing any more`);
  const changes = await changesOf(tx, ref.documentId);
  if (changes.length === 0) refuse(`${number} stages no change`);
  const stale = await staleChange(tx, ref.facilityId, number, changes);
  if (stale) refuse(stale);
  return { row, scope, number, changes, refuse };
}

async function beforeSubmit(tx: Queryable, context: ApprovedContext): Promise<void> {
  const { refuse } = await refuseUnlessOpen(tx, context, 'Submit');
  const [found] = await assessmentSummaries(tx, context.ref.facilityId, {
    ids: [context.ref.documentId],
  });
  const evaluation = found!.evaluation;
  if (!evaluation) refuse('The change has not been evaluated; evaluate it before submitting it');
  if (!evaluation!.current)
    refuse("The facility's data changed since the evaluation; evaluate the change again");
  if (evaluation!.undecided > 0)
    refuse(
      `${evaluation!.undecided} impact item${evaluation!.undecided === 1 ? ' has' : 's have'} no decision`,
    );
}

/** Applies the change set as the approver, in the staged order, then stores the snapshot. */
function onApproved(db: Pick<Db, 'kind'>) {
  return async (tx: Queryable, context: ApprovedContext): Promise<number> => {
    const { row, scope, number, changes } = await refuseUnlessOpen(tx, context, 'Approve');
    const { actor } = context;
    await applyChanges(tx, changes, {
      actor,
      scope,
      dbKind: db.kind,
      approvedAs: { id: row.id, number, key: context.key },
    });
    const snapshotId = await storeLimitsSnapshot(tx, context);
    // The approval's own write: the signature service keeps the approved version's state.
    await writeRecord(tx, changeAssessmentType, {
      actor,
      scope,
      row,
      set: { limits_snapshot_id: snapshotId },
      audit: {
        action: 'Apply',
        reason: `${number} approved`,
        newValues: { number, changes: changes.length, limitsSnapshotId: snapshotId },
      },
      byApproval: true,
    });
    await emitRecordEvent(tx, {
      facilityId: scope.facilityId,
      event: 'changeAssessment.approved',
      record: { type: 'ChangeAssessment', id: row.id },
      data: {
        number,
        versionNumber: context.versionNumber,
        changes: changes.length,
        limitsSnapshotId: snapshotId,
      },
    });
    return snapshotId;
  };
}

export function registerChangeAssessmentType(db: Pick<Db, 'kind'>): void {
  registerDocumentType('ChangeAssessment', {
    resource: 'FacilityCleaningEvaluation',
    action: 'Generate',
    title: (content) => `${String(content.number)} ${String(content.title)}`,
    printContent: printChangeAssessment,
    recordVersion: async (q, ref) => {
      const [row] = await q.query<{ version: number }>(
        `select version from change_assessments where facility_id = $1 and id = $2`,
        [ref.facilityId, ref.documentId],
      );
      return row?.version ?? null;
    },
    beforeSubmit,
    onApproved: onApproved(db),
  });
}
