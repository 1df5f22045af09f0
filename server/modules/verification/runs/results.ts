import { AppError } from '#core/errors/errors.ts';
import type { TResultUnit, TRun, TSampleResultInput } from '#core/schemas/verification.schemas.ts';
import { judgeResult } from '#core/verification/judge-result.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { isUniqueViolation } from '#server/modules/users-admin/records.ts';
import {
  batchesTaken,
  duplicateBatch,
  problemsOf,
  supersedeMany,
  takenBatchesSql,
  type Original,
} from './result-checks.ts';
import {
  limitAt,
  locationFacts,
  locationRowsSql,
  detectionIn,
  methodFacts,
  methodRowsSql,
  recoveryAt,
  residueOf,
  type LocationFacts,
  type LocationRow,
  type MethodFacts,
  type StudyOfRun,
} from './run-plan.ts';
import { oosRepeatProblems } from './oos-rule.ts';
import { announceResultsFailed } from './run-events.ts';
import { createRecords } from '#server/records/write-record.ts';
import { repeatColumns, sampleResultType } from './result-records.ts';
import { getRun, studyOf } from './runs.read.ts';
import { keepingReads } from '#server/db/kept-reads.ts';
import { afterRunChange, editableRun, inTransaction, type Scope } from './runs.service.ts';

/*
 * Sample results of a run (core/verification/README.md): entered many at once, checked first
 * (result-checks.ts, nothing saved on a problem); judged by the server with the study's
 * snapshot, the recovery and the method's LOQ; a retest or re-swab supersedes the original.
 * Corrections are in result-edit.ts.
 */

/** The judgement of a value at a location with a method, as the server computes it. */
export function judge(
  study: StudyOfRun,
  location: LocationFacts,
  method: MethodFacts,
  value: { censoring: TSampleResultInput['censoring']; rawValue: number; unit: TResultUnit },
) {
  const { limit, derivation } = limitAt(study, location, value.unit);
  const judgement = judgeResult({
    ...value,
    ...recoveryAt(study, location, method),
    limit,
    ...detectionIn(study, location, method, value.unit),
    residue: residueOf(study, method),
  });
  // How the limit came from the pinned snapshot, then how the result was judged against it.
  return { ...judgement, derivation: [...derivation, ...judgement.derivation] };
}

/** The columns of a sample result that store its judgement, as an entry, correction or re-judgement writes them. */
// The jsonb column's value as its object: a placeholder and a bulk insert both take it so.
export const judgementColumns = (judgement: ReturnType<typeof judge>) => ({
  judgement,
  percent_of_limit: judgement.percentOfLimit,
  censored_below: judgement.censoredBelow,
  passed: judgement.passed,
});

/**
 * Inserts the checked rows of one entry, each judged, in a constant number of statements
 * (issue 34): the results and their audit rows many to a statement, then every repeated
 * result superseded by its repeat in one more.
 */
async function insertResults(
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  runId: number,
  entries: {
    row: TSampleResultInput;
    study: StudyOfRun;
    location: LocationFacts;
    method: MethodFacts;
    batch: string | null;
  }[],
): Promise<void> {
  const judged = entries.map((e) => ({
    ...e,
    judgement: judge(e.study, e.location, e.method, e.row),
  }));
  const inserted = await createRecords(tx, sampleResultType, {
    actor,
    scope,
    rows: judged.map(({ row, location, method, batch, judgement }) => ({
      run_id: runId,
      sampling_location_id: location.id,
      equipment_id: location.equipmentId,
      sample_type: row.sampleType,
      analytical_method_id: method.id,
      analytical_method_version: method.version,
      batch_number: batch,
      censoring: row.censoring,
      raw_value: row.rawValue,
      unit: row.unit,
      ...judgementColumns(judgement),
      ...repeatColumns(row.repeats),
      taken_at: row.takenAt ?? null,
      analysed_at: row.analysedAt ?? null,
      analyst: row.analyst ?? null,
    })),
    audit: (_, i) => {
      const { row, batch, judgement } = judged[i]!;
      return {
        reason: row.repeats?.reason ?? null,
        newValues: { runId, ...row, batchNumber: batch, judgement },
      };
    },
  });
  // Each failing result tells other systems (issue 33), all in a constant number of statements;
  // an entry of passing results costs none.
  await announceResultsFailed(
    tx,
    scope.facilityId,
    judged.map(({ judgement }, i) => ({
      id: inserted[i]!.id as number,
      runId,
      wasPassed: null,
      judgement,
    })),
  );
  await supersedeMany(
    tx,
    'sample_results',
    { facilityId: scope.facilityId, userId: actor.userId },
    judged.flatMap(({ row }, i) =>
      row.repeats ? [{ id: row.repeats.resultId, by: inserted[i]!.id as number }] : [],
    ),
  );
}

export async function enterResults(
  db: Db,
  actor: Actor,
  scope: Scope,
  runId: number,
  rows: TSampleResultInput[],
): Promise<void> {
  await inTransaction(db, (tx) => keepingReads(tx, () => enter(tx, actor, scope, runId, rows)));
}

/** enterResults answering the run as it committed, read in the entry's transaction (the route). */
export async function enterResultsAndRead(
  db: Db,
  actor: Actor,
  scope: Scope,
  runId: number,
  rows: TSampleResultInput[],
): Promise<TRun> {
  return inTransaction(db, (tx) =>
    keepingReads(tx, async () => {
      await enter(tx, actor, scope, runId, rows);
      return getRun(tx, scope.facilityId, runId);
    }),
  );
}

/**
 * The entry in its transaction. The study read for the checks is the one the recompute judges
 * with, and the run read back is the one it judged (run-reads.ts): an entry reads neither twice.
 */
async function enter(
  tx: Queryable,
  actor: Actor,
  scope: Scope,
  runId: number,
  rows: TSampleResultInput[],
): Promise<void> {
  const run = await editableRun(tx, actor, scope, runId);
  const study = await studyOf(tx, scope.facilityId, run.study_id);
  const repeated = rows.flatMap((r) => (r.repeats ? [r.repeats.resultId] : []));
  // The plan's locations and methods with the entry's: the recompute judges the plan with
  // them, kept from these reads (run-reads.ts). Read with the batch numbers already taken in
  // one statement (issue 34): the entry's checks cost one round trip.
  const content = study.protocol_content;
  const plan = content.samplingPlan ?? [];
  const locationIds = [
    ...new Set([
      ...rows.map((r) => r.samplingLocationId),
      ...plan.map((p) => p.samplingLocationId),
      ...(content.microbialSampling ?? []).flatMap((p) =>
        p.samplingLocationId ? [p.samplingLocationId] : [],
      ),
    ]),
  ];
  const methodIds = [
    ...new Set([
      ...rows.map((r) => r.analyticalMethodId),
      ...plan.map((p) => p.analyticalMethodId),
    ]),
  ];
  // A retest analyses the same sample again: it carries its original's batch number.
  const numbered = rows.flatMap((r) =>
    r.batchNumber && r.repeats?.kind !== 'retest'
      ? [{ key: r.key, batch: r.batchNumber, repeatsId: r.repeats?.resultId ?? null }]
      : [],
  );
  const [[checks], originalRows] = await Promise.all([
    tx.query<{ locations: LocationRow[]; methods: MethodFacts[]; taken: string[] }>(
      `select (select coalesce(json_agg(l), '[]') from (${locationRowsSql('$1', '$2')}) l) as locations,
              (select coalesce(json_agg(m), '[]') from (${methodRowsSql('$1', '$3')}) m) as methods,
              array(select t.batch from (${takenBatchesSql('$1', '$4')}) t) as taken`,
      [scope.facilityId, locationIds, methodIds, numbered.map((r) => r.batch.toLowerCase())],
    ),
    // An entry of first results repeats nothing: no original to lock.
    repeated.length === 0
      ? []
      : tx.query<Original>(
          `select id, run_id, sampling_location_id, batch_number, superseded_by from sample_results
              where facility_id = $1 and id = any($2::int[]) for update`,
          [scope.facilityId, repeated],
        ),
  ]);
  const locations = await locationFacts(tx, scope.facilityId, locationIds, checks!.locations);
  const methods = await methodFacts(tx, scope.facilityId, methodIds, checks!.methods);
  const originals = new Map(originalRows.map((o) => [o.id, o]));
  const errors = [
    ...problemsOf(rows, study, runId, { locations, methods, originals }),
    // FDA OOS guidance: a failing result is set aside only through an approved investigation.
    ...(await oosRepeatProblems(tx, scope.facilityId, actor.userId, rows)),
  ];
  if (errors.length > 0)
    throw new AppError('SampleChangesError', 'Some sample results have problems.', { errors });
  const batchOf = (row: TSampleResultInput) =>
    row.repeats?.kind === 'retest'
      ? (originals.get(row.repeats.resultId)!.batch_number ?? null)
      : (row.batchNumber ?? null);
  const taken = await batchesTaken(tx, scope.facilityId, numbered, checks!.taken);
  if (taken.length > 0) throw duplicateBatch(taken);
  try {
    await insertResults(
      tx,
      actor,
      scope,
      runId,
      rows.map((row) => ({
        row,
        study,
        location: { ...locations.get(row.samplingLocationId)!, sampleType: row.sampleType },
        method: methods.get(row.analyticalMethodId)!,
        batch: batchOf(row),
      })),
    );
  } catch (error) {
    // Two entries at once with one batch number: the unique index decides.
    if (isUniqueViolation(error)) throw duplicateBatch(['batchNumber']);
    throw error;
  }
  await afterRunChange(tx, actor, scope, runId, run);
}
