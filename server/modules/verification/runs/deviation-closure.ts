import { validationError, type PropertyError } from '#core/errors/errors.ts';
import { meaningOf } from '#core/schemas/signatures.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import {
  registerDocumentType,
  type ApprovedContext,
  type ControlledRef,
} from '#server/records/controlled.ts';
import { NOW, openRecord, writeRecord, type StoredRow } from '#server/records/write-record.ts';
import { deviationType } from './deviations.ts';
import { deviationNumber } from './runs.read.ts';
import { auditRun, type Scope } from './runs.service.ts';

/*
 * A deviation's closure as a controlled record (document type Deviation; core/verification/
 * README.md): whoever investigated proposes the closure with its root cause and conclusion (the
 * Submit signature), and the quality unit approves it (the Approve signature, meaning 'Approve
 * closure') before the deviation counts as closed (21 CFR 211.192: an unexplained discrepancy
 * is investigated and its conclusion reviewed by the quality unit; EU GMP Part I 1.4(xiv)).
 * Who may approve is the approval policy of the type; neither the proposer nor the author may,
 * unless the policy allows self-approval. A rejection sends it back, Open.
 */

/** A closure proposes what was found and what it means; both are required. */
function closureProblems(d: StoredRow): PropertyError[] {
  const problems: PropertyError[] = [];
  if (!d.root_cause?.trim())
    problems.push({
      property: 'rootCause',
      constraints: { required: 'A deviation is closed with its root cause' },
    });
  if (!d.conclusion?.trim())
    problems.push({
      property: 'conclusion',
      constraints: { required: 'A deviation is closed with its conclusion' },
    });
  return problems;
}

const scopeOf = (ref: ControlledRef): Scope => ({ planId: ref.planId, facilityId: ref.facilityId });

async function beforeSubmit(tx: Queryable, { actor, ref }: ApprovedContext): Promise<void> {
  const scope = scopeOf(ref);
  // The run's record carries its deviations: a submitted or frozen run keeps them as they are.
  const d = await openRecord(tx, deviationType, actor, scope, ref.documentId);
  const problems = closureProblems(d);
  if (problems.length > 0) throw validationError(problems);
  await auditRun(tx, actor, scope, {
    domain: 'Deviation',
    action: 'ProposeClosure',
    entityId: d.id as number,
    newValues: {
      number: deviationNumber(d.seq as number),
      rootCause: d.root_cause,
      conclusion: d.conclusion,
    },
  });
}

async function onApproved(tx: Queryable, { actor, ref }: ApprovedContext): Promise<null> {
  const scope = scopeOf(ref);
  const d = await openRecord(tx, deviationType, actor, scope, ref.documentId);
  await writeRecord(tx, deviationType, {
    actor,
    scope,
    row: d,
    set: { status: 'Closed', closed_at: NOW, closed_by: actor.userId },
    audit: {
      action: 'Close',
      reason: meaningOf('Deviation', 'Approve'),
      oldValues: { status: d.status },
      newValues: {
        number: deviationNumber(d.seq as number),
        status: 'Closed',
        rootCause: d.root_cause,
        conclusion: d.conclusion,
      },
    },
    byApproval: true,
  });
  return null;
}

export function registerDeviationType(): void {
  registerDocumentType('Deviation', {
    resource: 'QualificationTask',
    action: 'Modify',
    title: (content) => `${String(content.number)} ${String(content.title)}`,
    recordVersion: async (q, ref) => {
      const [row] = await q.query<{ version: number }>(
        `select version from deviations where facility_id = $1 and id = $2`,
        [ref.facilityId, ref.documentId],
      );
      return row?.version ?? null;
    },
    authorOf: async (q, ref) => {
      const [row] = await q.query<{ created_by: number | null }>(
        `select created_by from deviations where facility_id = $1 and id = $2`,
        [ref.facilityId, ref.documentId],
      );
      return row?.created_by ?? null;
    },
    beforeSubmit,
    onApproved,
  });
}
