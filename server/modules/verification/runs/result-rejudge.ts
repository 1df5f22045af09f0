import { isDeepStrictEqual } from 'node:util';
import type { TCensoring, TJudgement, TResultUnit } from '#core/schemas/verification.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { judge, judgementColumns } from './results.ts';
import { locationFacts, methodAsAnalysed, type StudyOfRun } from './run-plan.ts';
import { writeRecord } from '#server/records/write-record.ts';
import { sampleResultType } from './result-records.ts';
import { announceResultFailed } from './run-events.ts';
import type { Scope } from './runs.service.ts';

/*
 * The stored judgements of a run's sample results, judged again under the current rules with
 * the facts a correction judges with (the study's snapshot, the location, the method as it was
 * in the version that analysed the result). A judgement written before a rule existed (issue
 * 26: method fitness; a swab method's LOQ that cannot be converted stored as methodNotFit false)
 * must not stay on a screen, a report or in the statistics while the release reads another
 * truth. Each change is audited with the old and new judgement (21 CFR 11.10(e)).
 */

interface StoredResult {
  id: number;
  version: number;
  sampling_location_id: number;
  sample_type: 'swab' | 'rinse';
  analytical_method_id: number;
  analytical_method_version: number;
  censoring: TCensoring;
  raw_value: string | number;
  unit: TResultUnit;
  judgement: TJudgement;
  passed: boolean | null;
}

/** Judges the run's sample results again; answers the ids whose stored judgement changed. */
export async function rejudgeRunResults(
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  runId: number,
  study: StudyOfRun,
  reason: string,
): Promise<number[]> {
  const stored = await tx.query<StoredResult>(
    `select * from sample_results where facility_id = $1 and run_id = $2 order by id for update`,
    [scope.facilityId, runId],
  );
  const locations = await locationFacts(
    tx,
    scope.facilityId,
    stored.map((r) => r.sampling_location_id),
  );
  const changed: number[] = [];
  for (const result of stored) {
    const location = locations.get(result.sampling_location_id);
    if (!location) continue;
    const method = await methodAsAnalysed(tx, scope.facilityId, {
      id: result.analytical_method_id,
      version: result.analytical_method_version,
    });
    if (!method) continue;
    const judgement = judge(study, { ...location, sampleType: result.sample_type }, method, {
      censoring: result.censoring,
      rawValue: Number(result.raw_value),
      unit: result.unit,
    });
    // Through JSON, as stored: undefined fields dropped, so only a real change is written.
    if (isDeepStrictEqual(JSON.parse(JSON.stringify(judgement)), result.judgement)) continue;
    // Through the one write path, at the version just locked, whatever the run's state: the
    // rules changed, not the result, so no guard of an edit applies.
    await writeRecord(tx, sampleResultType, {
      actor,
      scope,
      row: result,
      set: {
        ...judgementColumns(judgement),
      },
      audit: {
        action: 'Update',
        reason,
        oldValues: { judgement: result.judgement },
        newValues: { judgement },
      },
    });
    await announceResultFailed(
      tx,
      scope.facilityId,
      { id: result.id, runId, wasPassed: result.passed },
      judgement,
    );
    changed.push(result.id);
  }
  return changed;
}
