import { AppError } from '#core/errors/errors.ts';
import type { z } from 'zod';
import type { TResultUnit, ZResultEdit } from '#core/schemas/verification.schemas.ts';
import type { Db } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { isUniqueViolation } from '#server/modules/users-admin/records.ts';
import { batchesTaken, duplicateBatch, RETEST_KEEPS_BATCH, unitFits } from './result-checks.ts';
import { refuseCorrectionOutOfSpecification } from './oos-rule.ts';
import { announceResultFailed } from './run-events.ts';
import { judge, judgementColumns } from './results.ts';
import { locationFacts, methodAsAnalysed } from './run-plan.ts';
import { writeRecord } from '#server/records/write-record.ts';
import { openResult, sampleResultType } from './result-records.ts';
import { studyOf } from './runs.read.ts';
import { afterRunChange, inTransaction, type Scope } from './runs.service.ts';

/* A correction of an entered sample result (reason + version), judged again by the server. */

type ResultEdit = z.infer<typeof ZResultEdit>;

export const RETESTED_KEEPS_BATCH =
  'This result has been retested: its retests carry its sample number, which cannot change';

/** A correction of one result (reason + version), re-judged; answers its run's id. */
export async function editResult(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  body: ResultEdit,
): Promise<number> {
  return inTransaction(db, async (tx) => {
    const { current, run } = await openResult(tx, sampleResultType, actor, scope, id, body.version);
    const next = {
      censoring: body.censoring ?? current.censoring,
      rawValue: body.rawValue ?? Number(current.raw_value),
      unit: (body.unit ?? current.unit) as TResultUnit,
      batchNumber: body.batchNumber === undefined ? current.batch_number : body.batchNumber,
    };
    if (!unitFits(current.sample_type as string, next.unit))
      throw new AppError('SampleChangesError', 'Some sample results have problems.', {
        errors: [
          { property: 'unit', constraints: { invalid: 'The unit does not fit the sample type' } },
        ],
      });
    const changed = Object.entries(next).filter(
      ([k, v]) =>
        v !==
        {
          censoring: current.censoring,
          rawValue: Number(current.raw_value),
          unit: current.unit,
          batchNumber: current.batch_number,
        }[k],
    );
    if (changed.length === 0) throw new AppError('NothingToChangeError');
    if (current.repeat_kind === 'retest' && next.batchNumber !== current.batch_number)
      throw new AppError('SampleChangesError', 'Some sample results have problems.', {
        errors: [{ property: 'batchNumber', constraints: { invalid: RETEST_KEEPS_BATCH } }],
      });
    if (next.batchNumber !== current.batch_number) {
      // Its retests analysed the same sample and carry its batch number: they would part.
      const [retested] = await tx.query(
        `select 1 from sample_results where repeats_result_id = $1 and repeat_kind = 'retest'`,
        [id],
      );
      if (retested)
        throw new AppError('SampleChangesError', 'Some sample results have problems.', {
          errors: [{ property: 'batchNumber', constraints: { invalid: RETESTED_KEEPS_BATCH } }],
        });
      if (
        next.batchNumber &&
        (
          await batchesTaken(tx, scope.facilityId, [
            { key: 'x', batch: next.batchNumber, repeatsId: null },
          ])
        ).length > 0
      )
        throw duplicateBatch(['batchNumber']);
    }
    const study = await studyOf(tx, scope.facilityId, run.study_id);
    const locations = await locationFacts(tx, scope.facilityId, [current.sampling_location_id]);
    // The method as it was in the version the result was analysed with (archived or not): a
    // correction changes the reported value, never the method, its recovery or its LOQ.
    const method = (await methodAsAnalysed(tx, scope.facilityId, {
      id: current.analytical_method_id as number,
      version: current.analytical_method_version as number,
    }))!;
    const location = {
      ...locations.get(current.sampling_location_id)!,
      sampleType: current.sample_type,
    };
    const judgement = judge(study, location, method, next);
    await refuseCorrectionOutOfSpecification(
      tx,
      scope.facilityId,
      {
        passed: current.passed as boolean | null,
        percent_of_limit: current.percent_of_limit as number | null,
      },
      { passed: judgement.passed, percent_of_limit: judgement.percentOfLimit },
    );
    try {
      await writeRecord(tx, sampleResultType, {
        actor,
        scope,
        row: current,
        set: {
          censoring: next.censoring,
          raw_value: next.rawValue,
          unit: next.unit,
          batch_number: next.batchNumber,
          ...judgementColumns(judgement),
        },
        audit: {
          action: 'Update',
          reason: body.reason,
          oldValues: {
            censoring: current.censoring,
            rawValue: Number(current.raw_value),
            unit: current.unit,
            batchNumber: current.batch_number,
            judgement: current.judgement,
          },
          newValues: { ...next, judgement },
        },
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateBatch(['batchNumber']);
      throw error;
    }
    await announceResultFailed(
      tx,
      scope.facilityId,
      { id, runId: run.id, wasPassed: current.passed as boolean | null },
      judgement,
    );
    await afterRunChange(tx, actor, scope, run.id);
    return run.id;
  });
}
