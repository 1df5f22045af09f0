import { AppError, type PropertyError } from '#core/errors/errors.ts';
import {
  SWAB_RESULT_UNITS,
  type TResultUnit,
  type TSampleResultInput,
} from '#core/schemas/verification.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { writeCaused, writeCausedMany } from '#server/records/write-record.ts';
import type { ResultTable } from './oos-rule.ts';
import { resultType } from './result-records.ts';
import type { LocationFacts, MethodFacts, StudyOfRun } from './run-plan.ts';

/*
 * What entered sample results are checked for before anything is saved: every problem of every
 * row by `<key>.<field>` (SampleChangesError), and batch numbers unique across the facility's
 * results and samples (DuplicateBatchNumber; a retest keeps its original's).
 */

export const DUPLICATE_BATCH = 'Batch number must be unique across samples';
/** A retest analyses the same sample again: it keeps that sample's number. */
export const RETEST_KEEPS_BATCH = 'A retest keeps the sample number of the result it repeats';

export const unitFits = (sampleType: string, unit: TResultUnit) =>
  (SWAB_RESULT_UNITS as readonly string[]).includes(unit) === (sampleType === 'swab');

export interface Original {
  id: number;
  run_id: number;
  sampling_location_id: number;
  batch_number: string | null;
  superseded_by: number | null;
}

export function duplicateBatch(properties: string[]): AppError {
  return new AppError('DuplicateBatchNumber', DUPLICATE_BATCH, {
    errors: properties.map((property) => ({ property, constraints: { unique: DUPLICATE_BATCH } })),
  });
}

/**
 * The batch numbers among `batches` (SQL parameters: the facility, the numbers in lower case)
 * that a result (a retest's own too) or a sample of the facility already has, as `batch`.
 */
export const takenBatchesSql = (facility: string, batches: string) =>
  `select lower(batch_number) as batch from sample_results
    where facility_id = ${facility} and lower(batch_number) = any(${batches}::text[])
   union all
   select lower(batch_number) from samples
    where facility_id = ${facility} and lower(batch_number) = any(${batches}::text[])`;

/**
 * Keys of rows whose batch number is already another result's (not a retest's own) or a
 * sample's; `taken` when given answers which of them are (the caller read them with other
 * things in one statement).
 */
export async function batchesTaken(
  tx: Queryable,
  facilityId: number,
  rows: { key: string; batch: string; repeatsId: number | null }[],
  taken?: readonly string[],
): Promise<string[]> {
  if (rows.length === 0) return [];
  const stored = new Set(
    taken ??
      (
        await tx.query<{ batch: string }>(takenBatchesSql('$1', '$2'), [
          facilityId,
          rows.map((r) => r.batch.toLowerCase()),
        ])
      ).map((t) => t.batch),
  );
  const seen = new Set<string>();
  return rows
    .filter((r) => {
      const batch = r.batch.toLowerCase();
      const inBody = seen.has(batch);
      seen.add(batch);
      return inBody || stored.has(batch);
    })
    .map((r) => `${r.key}.batchNumber`);
}

/** Every problem of the rows at once, by `<key>.<field>`. */
export function problemsOf(
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
  }
  errors.push(...repeatProblems(rows, runId, (id) => facts.originals.get(id)));
  return errors;
}

/**
 * The problems of rows that repeat (retest or re-swab) an earlier result, sample or microbial:
 * a result of the same run, at the same location, not yet repeated, by one row only; a retest
 * keeps its original's batch number.
 */
export function repeatProblems(
  rows: readonly {
    key: string;
    samplingLocationId: number | null;
    batchNumber?: string | null | undefined;
    repeats?: { resultId: number; kind: 'retest' | 'reswab' } | undefined;
  }[],
  runId: number,
  originalOf: (id: number) =>
    | (Omit<Original, 'id' | 'sampling_location_id'> & {
        sampling_location_id: number | null;
      })
    | undefined,
): PropertyError[] {
  const errors: PropertyError[] = [];
  const problem = (key: string, field: string, message: string) =>
    errors.push({ property: `${key}.${field}`, constraints: { invalid: message } });
  for (const { key, repeats, samplingLocationId, batchNumber } of rows) {
    if (!repeats) continue;
    const original = originalOf(repeats.resultId);
    if (!original || original.run_id !== runId)
      problem(key, 'repeats', 'A repeat repeats a result of the same run');
    else if (original.superseded_by !== null)
      problem(key, 'repeats', 'That result has already been repeated');
    else if (original.sampling_location_id !== samplingLocationId)
      problem(key, 'repeats', 'A repeat is taken at the location of the result it repeats');
    else if (
      repeats.kind === 'retest' &&
      batchNumber &&
      batchNumber.toLowerCase() !== (original.batch_number ?? '').toLowerCase()
    )
      problem(key, 'batchNumber', RETEST_KEEPS_BATCH);
  }
  const repeated = rows.filter((r) => r.repeats).map((r) => r.repeats!.resultId);
  for (const row of rows)
    if (row.repeats && repeated.filter((id) => id === row.repeats!.resultId).length > 1)
      problem(row.key, 'repeats', 'Two rows repeat the same result');
  return errors;
}

/**
 * The repeated result is superseded by its repeat: kept and shown, no longer counted. The
 * repeat's audit row (its reason, what it repeats) records it.
 */
export async function supersede(
  tx: Queryable,
  table: ResultTable,
  {
    facilityId,
    id,
    by,
    userId,
  }: { facilityId: number; id: number; by: number; userId: number | null },
): Promise<void> {
  await writeCaused(tx, resultType(table), { userId, facilityId, id, set: { superseded_by: by } });
}

/** supersede of many results at once, each by its own repeat: one statement. */
export async function supersedeMany(
  tx: Queryable,
  table: ResultTable,
  { facilityId, userId }: { facilityId: number; userId: number | null },
  repeated: readonly { id: number; by: number }[],
): Promise<void> {
  if (repeated.length === 0) return;
  await writeCausedMany(tx, resultType(table), {
    userId,
    facilityId,
    rows: repeated.map(({ id, by }) => ({ id, set: { superseded_by: by } })),
  });
}
