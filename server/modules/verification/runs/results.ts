import { AppError, type PropertyError } from '../../../../core/errors/errors.ts';
import type { z } from 'zod';
import {
  SWAB_RESULT_UNITS,
  type TResultUnit,
  type TSampleResultInput,
  type ZResultEdit,
} from '../../../../core/schemas/verification.schemas.ts';
import { judgeResult } from '../../../../core/verification/judge-result.ts';
import type { Db, Queryable } from '../../../db/db.ts';
import type { Actor } from '../../audit/audit.service.ts';
import { isUniqueViolation } from '../../users-admin/records.ts';
import {
  limitAt,
  locationFacts,
  loqIn,
  methodFacts,
  recoveryAt,
  type LocationFacts,
  type MethodFacts,
  type StudyOfRun,
} from './run-plan.ts';
import { studyOf } from './runs.read.ts';
import {
  afterRunChange,
  auditRun,
  editableRun,
  inTransaction,
  type Scope,
} from './runs.service.ts';

/*
 * Sample results of a run (core/verification/README.md): entered many at once, every problem
 * reported at once (SampleChangesError, nothing saved); judged by the server with the study's
 * snapshot, the recovery and the method's LOQ; corrected with a reason; repeated by a retest or
 * re-swab that supersedes the original.
 */

const DUPLICATE_BATCH = 'Batch number must be unique across samples';

const unitFits = (sampleType: string, unit: TResultUnit) =>
  (SWAB_RESULT_UNITS as readonly string[]).includes(unit) === (sampleType === 'swab');

interface Original {
  id: number;
  run_id: number;
  sampling_location_id: number;
  batch_number: string | null;
  superseded_by: number | null;
}

function duplicateBatch(properties: string[]): AppError {
  return new AppError('DuplicateBatchNumber', DUPLICATE_BATCH, {
    errors: properties.map((property) => ({ property, constraints: { unique: DUPLICATE_BATCH } })),
  });
}

/** Keys of rows whose batch number is already another result's (not a retest's own) or a sample's. */
async function batchesTaken(
  tx: Queryable,
  facilityId: number,
  rows: { key: string; batch: string; repeatsId: number | null }[],
): Promise<string[]> {
  if (rows.length === 0) return [];
  const taken = await tx.query<{ batch: string; result_id: number | null }>(
    `select lower(batch_number) as batch, id as result_id from sample_results
      where facility_id = $1 and lower(batch_number) = any($2::text[])
     union all
     select lower(batch_number), null from samples
      where facility_id = $1 and lower(batch_number) = any($2::text[])`,
    [facilityId, rows.map((r) => r.batch.toLowerCase())],
  );
  const seen = new Set<string>();
  return rows
    .filter((r) => {
      const batch = r.batch.toLowerCase();
      const inBody = seen.has(batch);
      seen.add(batch);
      return inBody || taken.some((t) => t.batch === batch);
    })
    .map((r) => `${r.key}.batchNumber`);
}

/** The judgement of a value at a location with a method, as the server computes it. */
export function judge(
  study: StudyOfRun,
  location: LocationFacts,
  method: MethodFacts,
  value: { censoring: TSampleResultInput['censoring']; rawValue: number; unit: TResultUnit },
) {
  const { limit } = limitAt(study, location, value.unit);
  return judgeResult({
    ...value,
    ...recoveryAt(study, location, method),
    limit,
    loq: loqIn(method, value.unit),
  });
}

async function insertResult(
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  runId: number,
  row: TSampleResultInput,
  facts: { study: StudyOfRun; location: LocationFacts; method: MethodFacts; batch: string | null },
): Promise<number> {
  const { study, location, method, batch } = facts;
  const judgement = judge(study, location, method, row);
  const [inserted] = await tx.query<{ id: number }>(
    `insert into sample_results (facility_id, run_id, sampling_location_id, equipment_id,
       sample_type, analytical_method_id, analytical_method_version, batch_number, censoring,
       raw_value, unit, judgement, percent_of_limit, censored_below, passed, repeats_result_id,
       repeat_kind, repeat_reason, taken_at, created_by, updated_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
       $19, $20, $20)
     returning id`,
    [
      scope.facilityId,
      runId,
      location.id,
      location.equipmentId,
      row.sampleType,
      method.id,
      method.version,
      batch,
      row.censoring,
      row.rawValue,
      row.unit,
      JSON.stringify(judgement),
      judgement.percentOfLimit,
      judgement.censoredBelow,
      judgement.passed,
      row.repeats?.resultId ?? null,
      row.repeats?.kind ?? null,
      row.repeats?.reason ?? null,
      row.takenAt ?? null,
      actor.userId,
    ],
  );
  const id = inserted!.id;
  if (row.repeats)
    await tx.query(
      `update sample_results set superseded_by = $2, version = version + 1, updated_at = now(),
              updated_by = $3
        where id = $1`,
      [row.repeats.resultId, id, actor.userId],
    );
  await auditRun(tx, actor, scope, {
    domain: 'SampleResult',
    action: 'Create',
    entityId: id,
    reason: row.repeats?.reason ?? null,
    newValues: { runId, ...row, batchNumber: batch, judgement },
  });
  return id;
}

/** Every problem of the rows at once, by `<key>.<field>`. */
function problemsOf(
  rows: TSampleResultInput[],
  study: StudyOfRun,
  runId: number,
  facts: {
    locations: Map<number, LocationFacts>;
    methods: Map<number, MethodFacts>;
    originals: Map<number, Original>;
  },
): PropertyError[] {
  const plan = study.protocol_content.samplingPlan ?? [];
  const errors: PropertyError[] = [];
  const problem = (key: string, field: string, message: string) =>
    errors.push({ property: `${key}.${field}`, constraints: { invalid: message } });
  const keys = new Set<string>();
  for (const row of rows) {
    const { key } = row;
    if (keys.has(key)) problem(key, 'key', `The key ${key} is used by two rows`);
    keys.add(key);
    const planned = plan.find((p) => p.samplingLocationId === row.samplingLocationId);
    if (!planned || !facts.locations.has(row.samplingLocationId))
      problem(key, 'samplingLocationId', "This location is not in the study's sampling plan");
    else if (planned.sampleType !== row.sampleType)
      problem(key, 'sampleType', `The plan samples this location by ${planned.sampleType}`);
    if (!facts.methods.has(row.analyticalMethodId))
      problem(key, 'analyticalMethodId', 'No such analytical method in this facility');
    if (!unitFits(row.sampleType, row.unit))
      problem(
        key,
        'unit',
        row.sampleType === 'swab'
          ? 'A swab result is in mg/swab or ug/swab'
          : 'A rinse result is in mg/ml, ug/ml or ppm',
      );
    if (row.repeats) {
      const original = facts.originals.get(row.repeats.resultId);
      if (!original || original.run_id !== runId)
        problem(key, 'repeats', 'A repeat repeats a result of the same run');
      else if (original.superseded_by !== null)
        problem(key, 'repeats', 'That result has already been repeated');
      else if (original.sampling_location_id !== row.samplingLocationId)
        problem(key, 'repeats', 'A repeat is taken at the location of the result it repeats');
      else if (
        row.repeats.kind === 'retest' &&
        row.batchNumber &&
        row.batchNumber.toLowerCase() !== (original.batch_number ?? '').toLowerCase()
      )
        problem(key, 'batchNumber', 'A retest keeps the batch number of the result it repeats');
    }
  }
  const repeated = rows.filter((r) => r.repeats).map((r) => r.repeats!.resultId);
  for (const row of rows)
    if (row.repeats && repeated.filter((id) => id === row.repeats!.resultId).length > 1)
      problem(row.key, 'repeats', 'Two rows repeat the same result');
  return errors;
}

export async function enterResults(
  db: Db,
  actor: Actor,
  scope: Scope,
  runId: number,
  rows: TSampleResultInput[],
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const run = await editableRun(tx, actor, scope, runId);
    const study = await studyOf(tx, scope.facilityId, run.study_id);
    const [locations, methods, originalRows] = await Promise.all([
      locationFacts(
        tx,
        scope.facilityId,
        rows.map((r) => r.samplingLocationId),
      ),
      methodFacts(
        tx,
        scope.facilityId,
        rows.map((r) => r.analyticalMethodId),
      ),
      tx.query<Original>(
        `select id, run_id, sampling_location_id, batch_number, superseded_by from sample_results
          where facility_id = $1 and id = any($2::int[]) for update`,
        [scope.facilityId, rows.flatMap((r) => (r.repeats ? [r.repeats.resultId] : []))],
      ),
    ]);
    const originals = new Map(originalRows.map((o) => [o.id, o]));
    const errors = problemsOf(rows, study, runId, { locations, methods, originals });
    if (errors.length > 0)
      throw new AppError('SampleChangesError', 'Some sample results have problems.', { errors });
    // A retest analyses the same sample again: it carries its original's batch number.
    const batchOf = (row: TSampleResultInput) =>
      row.repeats?.kind === 'retest'
        ? (originals.get(row.repeats.resultId)!.batch_number ?? null)
        : (row.batchNumber ?? null);
    const taken = await batchesTaken(
      tx,
      scope.facilityId,
      rows.flatMap((r) =>
        r.batchNumber && r.repeats?.kind !== 'retest'
          ? [{ key: r.key, batch: r.batchNumber, repeatsId: r.repeats?.resultId ?? null }]
          : [],
      ),
    );
    if (taken.length > 0) throw duplicateBatch(taken);
    try {
      for (const row of rows) {
        const location = { ...locations.get(row.samplingLocationId)!, sampleType: row.sampleType };
        const method = methods.get(row.analyticalMethodId)!;
        await insertResult(tx, actor, scope, runId, row, {
          study,
          location,
          method,
          batch: batchOf(row),
        });
      }
    } catch (error) {
      // Two entries at once with one batch number: the unique index decides.
      if (isUniqueViolation(error)) throw duplicateBatch(['batchNumber']);
      throw error;
    }
    await afterRunChange(tx, actor, scope, runId);
  });
}

type ResultEdit = z.infer<typeof ZResultEdit>;

/** A correction of one result (reason + version), re-judged; answers its run's id. */
export async function editResult(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  body: ResultEdit,
): Promise<number> {
  return inTransaction(db, async (tx) => {
    const [current] = await tx.query<Record<string, any>>( // eslint-disable-line @typescript-eslint/no-explicit-any -- the row as stored
      `select * from sample_results where facility_id = $1 and id = $2`,
      [scope.facilityId, id],
    );
    if (!current) throw new AppError('NotFoundError', `Sample result ${id} was not found`);
    const run = await editableRun(tx, actor, scope, current.run_id as number);
    const [locked] = await tx.query<{ version: number }>(
      `select version from sample_results where id = $1 for update`,
      [id],
    );
    if (locked!.version !== body.version) throw new AppError('VersionConflictError');
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
    if (
      next.batchNumber &&
      next.batchNumber !== current.batch_number &&
      current.repeat_kind !== 'retest' &&
      (
        await batchesTaken(tx, scope.facilityId, [
          { key: 'x', batch: next.batchNumber, repeatsId: null },
        ])
      ).length > 0
    )
      throw duplicateBatch(['batchNumber']);
    const study = await studyOf(tx, scope.facilityId, run.study_id);
    const locations = await locationFacts(tx, scope.facilityId, [current.sampling_location_id]);
    const methods = await methodFacts(tx, scope.facilityId, [current.analytical_method_id]);
    const location = {
      ...locations.get(current.sampling_location_id)!,
      sampleType: current.sample_type,
    };
    const method = methods.get(current.analytical_method_id) ?? {
      id: current.analytical_method_id,
      name: 'archived method',
      version: current.analytical_method_version,
      loq: null,
      recoveries: [],
    };
    const judgement = judge(study, location, method, next);
    try {
      await tx.query(
        `update sample_results set censoring = $2, raw_value = $3, unit = $4, batch_number = $5,
                judgement = $6, percent_of_limit = $7, censored_below = $8, passed = $9,
                analytical_method_version = $10, version = version + 1, updated_at = now(),
                updated_by = $11
          where id = $1`,
        [
          id,
          next.censoring,
          next.rawValue,
          next.unit,
          next.batchNumber,
          JSON.stringify(judgement),
          judgement.percentOfLimit,
          judgement.censoredBelow,
          judgement.passed,
          method.version,
          actor.userId,
        ],
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateBatch(['batchNumber']);
      throw error;
    }
    await auditRun(tx, actor, scope, {
      domain: 'SampleResult',
      action: 'Update',
      entityId: id,
      reason: body.reason,
      oldValues: {
        censoring: current.censoring,
        rawValue: Number(current.raw_value),
        unit: current.unit,
        batchNumber: current.batch_number,
        judgement: current.judgement,
      },
      newValues: { ...next, judgement },
    });
    await afterRunChange(tx, actor, scope, run.id);
    return run.id;
  });
}
