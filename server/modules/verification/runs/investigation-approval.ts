import { validationError } from '#core/errors/errors.ts';
import type { Queryable } from '#server/db/db.ts';
import { registerDocumentType, type ApprovedContext } from '#server/records/controlled.ts';
import { openRecord, writeRecord } from '#server/records/write-record.ts';
import { investigationNumber, investigationRow } from './investigations.read.ts';
import { submitProblems } from './investigations.service.ts';
import { microbialResultType, sampleResultType } from './result-records.ts';
import { afterRunChange, auditRun, editableRun } from './runs.service.ts';

/*
 * Investigation as a controlled document type (core/verification/README.md, "Out-of-specification
 * results"): submitted by whoever may modify runs once its outcome, cause and conclusion are
 * written; approved by the signers the facility's approval policy names (QA), never by its
 * submitter unless the policy allows self-approval. FDA OOS guidance (2006, rev. 2022) section
 * III.C: the investigation's conclusion is reviewed and approved by the quality unit, and only
 * then does an assignable laboratory cause invalidate the original result.
 */

async function beforeSubmit(tx: Queryable, { ref }: ApprovedContext): Promise<void> {
  const problems = submitProblems(await investigationRow(tx, ref.facilityId, ref.documentId));
  if (problems.length > 0) throw validationError(problems);
}

async function onApproved(tx: Queryable, { actor, ref }: ApprovedContext): Promise<null> {
  const row = await investigationRow(tx, ref.facilityId, ref.documentId);
  const scope = { planId: ref.planId, facilityId: ref.facilityId };
  // The result belongs to the run: a submitted or completed run no longer changes.
  await editableRun(tx, actor, scope, row.run_id);
  const number = investigationNumber(row.seq);
  await auditRun(tx, actor, scope, {
    domain: 'Investigation',
    action: 'Conclude',
    entityId: row.id,
    newValues: { number, outcome: row.outcome, causeCategory: row.cause_category },
  });
  if (row.outcome === 'assignableCause') {
    const microbial = row.microbial_result_id !== null;
    const resultId = microbial ? row.microbial_result_id! : row.result_id!;
    const type = microbial ? microbialResultType : sampleResultType;
    const result = await openRecord(tx, type, actor, scope, resultId);
    await writeRecord(tx, type, {
      actor,
      scope,
      row: result,
      set: { invalidated_by_investigation: row.id },
      audit: {
        action: 'Invalidate',
        reason: `${number}: ${row.cause_description ?? ''}`.trim(),
        oldValues: { invalidatedBy: null },
        newValues: { invalidatedBy: number, causeCategory: row.cause_category },
      },
    });
  }
  await afterRunChange(tx, actor, scope, row.run_id);
  return null;
}

export function registerInvestigationType(): void {
  registerDocumentType('Investigation', {
    resource: 'QualificationTask',
    action: 'Modify',
    title: (content) => {
      const result = content.result as { location?: string; reported?: string } | undefined;
      return `${String(content.number)} (${result?.location ?? ''}, ${result?.reported ?? ''})`;
    },
    recordVersion: async (q, ref) => {
      const [row] = await q.query<{ version: number }>(
        `select version from investigations where facility_id = $1 and id = $2`,
        [ref.facilityId, ref.documentId],
      );
      return row?.version ?? null;
    },
    beforeSubmit,
    onApproved,
  });
}
