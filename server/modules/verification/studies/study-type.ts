import type { Queryable } from '#server/db/db.ts';
import {
  ControlledRefusal,
  registerDocumentType,
  type ApprovedContext,
} from '#server/records/controlled.ts';

/*
 * Study as a controlled document type (core/verification/README.md): signing a study off needs
 * every run of it Completed, that is its Run record Approved.
 */

/** The sequences of the study's runs whose Run record is not Approved, in order. */
export async function incompleteRuns(
  q: Queryable,
  facilityId: number,
  studyId: number,
): Promise<number[]> {
  const rows = await q.query<{ sequence: number }>(
    `select r.sequence from study_runs r
      where r.facility_id = $1 and r.study_id = $2
        and not exists (select 1 from controlled_versions v
                         where v.facility_id = r.facility_id and v.document_type = 'Run'
                           and v.document_id = r.id and v.status = 'Approved')
      order by r.sequence`,
    [facilityId, studyId],
  );
  return rows.map((r) => r.sequence);
}

async function beforeSubmit(tx: Queryable, { actor, ref }: ApprovedContext): Promise<void> {
  const open = await incompleteRuns(tx, ref.facilityId, ref.documentId);
  if (open.length === 0) return;
  const runs = open.map((n) => `run ${n}`).join(', ');
  throw new ControlledRefusal(
    'TransactionLocked',
    `Every run must be completed before the study is submitted; not completed: ${runs}`,
    actor,
    ref,
    'Submit',
  );
}

export function registerStudyType(): void {
  registerDocumentType('Study', {
    resource: 'QualificationTask',
    action: 'Modify',
    title: (content) => `${String(content.number)} ${String(content.title)}`,
    recordVersion: async (q, ref) => {
      const [row] = await q.query<{ version: number }>(
        'select version from studies where facility_id = $1 and id = $2',
        [ref.facilityId, ref.documentId],
      );
      return row?.version ?? null;
    },
    beforeSubmit,
  });
}
