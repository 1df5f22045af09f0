import type { Queryable } from '#server/db/db.ts';
import {
  emitRecordEvent,
  emitRecordEvents,
  isEventAskedFor,
} from '#server/records/record-events.ts';
import { runName } from './runs.read.ts';

/*
 * What runs tell other systems (issue 33), in the transaction of the change: a release flag that
 * moved (the plant's systems hold or free the equipment on it) and a result that failed its
 * limit (FDA OOS guidance: an out-of-specification result is investigated at once).
 */

interface RunOfEvent {
  id: number;
  sequence: number;
  study_id: number;
  release_flag: string | null;
}

export async function announceReleaseFlag(
  tx: Queryable,
  facilityId: number,
  run: RunOfEvent,
  studySeq: number,
  next: { verdict: string; flag: string; reasons: readonly string[] },
): Promise<void> {
  if (next.flag === run.release_flag) return;
  await emitRecordEvent(tx, {
    facilityId,
    event: 'run.releaseFlagChanged',
    record: { type: 'Run', id: run.id },
    data: {
      run: runName(studySeq, run.sequence),
      studyId: run.study_id,
      previousReleaseFlag: run.release_flag,
      releaseFlag: next.flag,
      verdict: next.verdict,
      reasons: next.reasons,
    },
  });
}

/** A result that is now failing and was not before (entered failing, corrected or judged again). */
export function announceResultFailed(
  tx: Queryable,
  facilityId: number,
  result: { id: number; runId: number; wasPassed: boolean | null | undefined },
  judgement: { passed: boolean | null; percentOfLimit: number | null },
): Promise<void> {
  return announceResultsFailed(tx, facilityId, [{ ...result, judgement }]);
}

/**
 * announceResultFailed of many results at once (an entry's), in a constant number of
 * statements (issue 34): whether a hook asks, what the events name, then the events.
 */
export async function announceResultsFailed(
  tx: Queryable,
  facilityId: number,
  results: readonly {
    id: number;
    runId: number;
    wasPassed: boolean | null | undefined;
    judgement: { passed: boolean | null; percentOfLimit: number | null };
  }[],
): Promise<void> {
  const failed = results.filter((r) => r.judgement.passed === false && r.wasPassed !== false);
  if (failed.length === 0) return;
  if (!(await isEventAskedFor(tx, facilityId, 'result.failed'))) return;
  const about = await tx.query<{
    id: number;
    sequence: number;
    study_id: number;
    seq: number;
    location: string | null;
  }>(
    `select x.id, r.sequence, r.study_id, s.seq, l.name as location
       from sample_results x
       join study_runs r on r.id = x.run_id
       join studies s on s.id = r.study_id
       left join sampling_locations l on l.id = x.sampling_location_id
      where x.id = any($1::int[]) and x.facility_id = $2`,
    [failed.map((r) => r.id), facilityId],
  );
  const aboutOf = new Map(about.map((a) => [a.id, a]));
  await emitRecordEvents(
    tx,
    facilityId,
    'result.failed',
    failed.map((result) => {
      const of = aboutOf.get(result.id);
      return {
        record: { type: 'SampleResult', id: result.id },
        data: {
          runId: result.runId,
          run: of ? runName(of.seq, of.sequence) : null,
          samplingLocation: of?.location ?? null,
          percentOfLimit: result.judgement.percentOfLimit,
        },
      };
    }),
  );
}
