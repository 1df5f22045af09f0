import type { TFailures } from '#core/schemas/dashboard.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { studyNumberOf } from '../verification/studies/studies.read.ts';

/*
 * The failures tile of the dashboard: every run whose verdict is Fail and every Failed study,
 * read from the verdict and outcome stored with them (the one source every screen reads).
 */

const SHOWN = 10;

export async function failures(q: Queryable, facilityId: number): Promise<TFailures> {
  const runs = await q.query<{
    id: number;
    study_id: number;
    study_seq: number;
    sequence: number;
    completed: boolean;
    total: number;
  }>(
    `select r.id, r.study_id, s.seq as study_seq, r.sequence,
            exists (select 1 from controlled_versions v
                     where v.facility_id = r.facility_id and v.document_type = 'Run'
                       and v.document_id = r.id and v.status = 'Approved') as completed,
            count(*) over ()::int as total
       from study_runs r join studies s on s.id = r.study_id
      where r.facility_id = $1 and r.verdict = 'Fail'
      order by r.updated_at desc, r.id desc limit ${SHOWN}`,
    [facilityId],
  );
  const studies = await q.query<{ id: number; seq: number; title: string; total: number }>(
    `select id, seq, title, count(*) over ()::int as total from studies
      where facility_id = $1 and outcome = 'Failed'
      order by updated_at desc, id desc limit ${SHOWN}`,
    [facilityId],
  );
  return {
    failedRuns: {
      count: runs[0]?.total ?? 0,
      runs: runs.map((r) => ({
        id: r.id,
        studyId: r.study_id,
        studyNumber: studyNumberOf(r.study_seq),
        sequence: r.sequence,
        completed: r.completed,
      })),
    },
    failedStudies: {
      count: studies[0]?.total ?? 0,
      studies: studies.map((s) => ({ id: s.id, number: studyNumberOf(s.seq), title: s.title })),
    },
  };
}
