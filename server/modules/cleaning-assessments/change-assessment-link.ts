import type { Queryable } from '#server/db/db.ts';
import { numberOf } from '../change-assessments/change-assessments.read.ts';

/*
 * An approved change assessment writes its changes with audit reasons that start with its number
 * ('CA-0003: …', core/assessments/README.md; CA-0003 is change_assessments.seq 3).
 */

export interface ChangeAssessmentRef {
  id: number;
  number: string;
  title: string;
}

/** The number an audit reason names, 'CA-0003' of 'CA-0003: raise the PDE'. */
export function changeAssessmentNumber(reason: string | null): string | null {
  return reason ? (/^(CA-\d+):/.exec(reason)?.[1] ?? null) : null;
}

/** The facility's change assessments of these numbers, by number. */
export async function changeAssessmentsByNumber(
  q: Queryable,
  facilityId: number,
  numbers: readonly string[],
): Promise<Map<string, ChangeAssessmentRef>> {
  const seqs = [...new Set(numbers.map((n) => Number(n.slice(3))))].filter(
    (n) => Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647,
  );
  if (seqs.length === 0) return new Map();
  const rows = await q.query<{ id: number; seq: number; title: string }>(
    `select id, seq, title from change_assessments
      where facility_id = $1 and seq = any($2::int[])`,
    [facilityId, seqs],
  );
  return new Map(
    rows.map((r) => [numberOf(r.seq), { id: r.id, number: numberOf(r.seq), title: r.title }]),
  );
}

/** The facility's change assessments approved since `since` (all of them when null). */
export async function changeAssessmentsSince(
  q: Queryable,
  facilityId: number,
  since: string | null,
): Promise<ChangeAssessmentRef[]> {
  const rows = await q.query<{ id: number; seq: number; title: string }>(
    `select ca.id, ca.seq, ca.title from change_assessments ca
      where ca.facility_id = $1
        and exists (select 1 from controlled_versions v
                     where v.facility_id = ca.facility_id and v.document_type = 'ChangeAssessment'
                       and v.document_id = ca.id and v.approved_at is not null
                       and ($2::timestamptz is null or v.approved_at > $2))
      order by ca.seq`,
    [facilityId, since],
  );
  return rows.map((r) => ({ id: r.id, number: numberOf(r.seq), title: r.title }));
}
