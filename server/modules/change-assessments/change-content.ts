import type { Queryable } from '#server/db/db.ts';
import { numberOf } from './change-assessments.read.ts';

/*
 * A change assessment's content as its signers see it: the header, the staged changes in order,
 * the evaluation's summary and the decisions. Saved as the working version after every write, so
 * a signature binds exactly what was assessed.
 */

export interface Scope {
  planId: number;
  facilityId: number;
}

export const refOf = (scope: Scope, id: number) => ({
  ...scope,
  documentType: 'ChangeAssessment' as const,
  documentId: id,
});

export async function assessmentContent(
  tx: Queryable,
  scope: Scope,
  id: number,
): Promise<{ content: Record<string, unknown>; title: string }> {
  const [header] = await tx.query<{
    seq: number;
    title: string;
    change_type: string;
    description: string;
    moc_id: number | null;
  }>(
    `select seq, title, change_type, description, moc_id from change_assessments
      where facility_id = $1 and id = $2`,
    [scope.facilityId, id],
  );
  const changes = await tx.query<Record<string, unknown>>(
    `select op, entity, record_id as "recordId", record_version as "recordVersion", "values",
            reason, label
       from change_assessment_changes
      where assessment_id = $1 and removed_at is null order by position, id`,
    [id],
  );
  const [evaluation] = await tx.query<{ evaluatedAt: Date; summary: unknown; watermark: string }>(
    `select evaluated_at as "evaluatedAt", summary, watermark
       from change_assessment_evaluations where assessment_id = $1`,
    [id],
  );
  const decisions = await tx.query<{ key: string; decision: string; justification: string }>(
    // Decisions on items of the latest evaluation (one whose key is gone no longer counts).
    `select d.item_key as key, d.decision, d.justification
       from change_assessment_decisions d
       join change_assessment_evaluations e on e.assessment_id = d.assessment_id
      where d.assessment_id = $1
        and exists (select 1 from json_array_elements(e.items) i where i->>'key' = d.item_key)
      order by d.item_key`,
    [id],
  );
  const number = numberOf(header!.seq);
  const content = {
    number,
    title: header!.title,
    changeType: header!.change_type,
    description: header!.description,
    mocId: header!.moc_id,
    changes,
    evaluation: evaluation
      ? {
          evaluatedAt: new Date(evaluation.evaluatedAt).toISOString(),
          watermark: Number(evaluation.watermark),
          summary: evaluation.summary,
        }
      : null,
    decisions,
  };
  return { content, title: `${number} ${header!.title}` };
}
