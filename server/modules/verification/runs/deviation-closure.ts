import { validationError, type PropertyError } from '#core/errors/errors.ts';
import { meaningOf } from '#core/schemas/signatures.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import {
  registerDocumentType,
  type ApprovedContext,
  type ControlledRef,
} from '#server/records/controlled.ts';
import { deviationNumber } from './runs.read.ts';
import { afterRunChange, auditRun, editableRun, type Scope } from './runs.service.ts';

/*
 * A deviation's closure as a controlled record (document type Deviation; core/verification/
 * README.md): whoever investigated proposes the closure with its root cause and conclusion (the
 * Submit signature), and the quality unit approves it (the Approve signature, meaning 'Approve
 * closure') before the deviation counts as closed (21 CFR 211.192: an unexplained discrepancy
 * is investigated and its conclusion reviewed by the quality unit; EU GMP Part I 1.4(xiv)).
 * Who may approve is the approval policy of the type; neither the proposer nor the author may,
 * unless the policy allows self-approval. A rejection sends it back, Open.
 */

interface DeviationRow {
  id: number;
  seq: number;
  run_id: number;
  root_cause: string | null;
  conclusion: string | null;
  status: 'Open' | 'Closed';
  created_by: number | null;
}

async function deviationRow(q: Queryable, facilityId: number, id: number) {
  const [row] = await q.query<DeviationRow>(
    `select id, seq, run_id, root_cause, conclusion, status, created_by from deviations
      where facility_id = $1 and id = $2 for update`,
    [facilityId, id],
  );
  return row!;
}

/** A closure proposes what was found and what it means; both are required. */
function closureProblems(d: DeviationRow): PropertyError[] {
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
  const d = await deviationRow(tx, ref.facilityId, ref.documentId);
  // The run's record carries its deviations: a submitted or frozen run keeps them as they are.
  await editableRun(tx, actor, scope, d.run_id);
  const problems = closureProblems(d);
  if (problems.length > 0) throw validationError(problems);
  await auditRun(tx, actor, scope, {
    domain: 'Deviation',
    action: 'ProposeClosure',
    entityId: d.id,
    newValues: {
      number: deviationNumber(d.seq),
      rootCause: d.root_cause,
      conclusion: d.conclusion,
    },
  });
}

async function onApproved(tx: Queryable, { actor, ref }: ApprovedContext): Promise<null> {
  const scope = scopeOf(ref);
  const d = await deviationRow(tx, ref.facilityId, ref.documentId);
  await editableRun(tx, actor, scope, d.run_id);
  await tx.query(
    `update deviations set status = 'Closed', closed_at = now(), closed_by = $2,
            version = version + 1, updated_at = now(), updated_by = $2
      where id = $1`,
    [d.id, actor.userId],
  );
  await auditRun(tx, actor, scope, {
    domain: 'Deviation',
    action: 'Close',
    entityId: d.id,
    reason: meaningOf('Deviation', 'Approve'),
    oldValues: { status: d.status },
    newValues: {
      number: deviationNumber(d.seq),
      status: 'Closed',
      rootCause: d.root_cause,
      conclusion: d.conclusion,
    },
  });
  await afterRunChange(tx, actor, scope, d.run_id);
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
