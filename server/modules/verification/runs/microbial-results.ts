import { AppError, type PropertyError } from '#core/errors/errors.ts';
import type { z } from 'zod';
import {
  MICROBIAL_UNITS,
  type TMicrobialJudgement,
  type TMicrobialKind,
  type TMicrobialResultInput,
  type ZMicrobialResultEdit,
} from '#core/schemas/verification.schemas.ts';
import { judgeMicrobial, microbialLimit } from '#core/verification/judge-microbial.ts';
import type { Db } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import {
  pinMicrobialPolicy,
  planLocations,
  type MicrobialLocation,
  type PinnedMicrobialPolicy,
} from './microbial-read.ts';
import { oosRepeatProblems, refuseCorrectionOutOfSpecification } from './oos-rule.ts';
import { repeatProblems, supersede } from './result-checks.ts';
import { createRecord, writeRecord } from '#server/records/write-record.ts';
import { microbialResultType, openResult, repeatColumns } from './result-records.ts';
import { studyOf } from './runs.read.ts';
import { afterRunChange, editableRun, inTransaction, type Scope } from './runs.service.ts';

/*
 * Microbial results of a run (core/verification/README.md, "Microbial results"): judged by the
 * server against the microbial limit policy version pinned on the run (microbial-read.ts), with
 * the room grade of the location's equipment; entered many at once, every problem reported at
 * once (SampleChangesError); corrections and repeats by the mechanism of sample results, an
 * out-of-specification one set aside only through an investigation (oos-rule.ts).
 */

function judged(
  policy: PinnedMicrobialPolicy,
  value: { kind: TMicrobialKind; censoring: TMicrobialResultInput['censoring']; rawValue: number },
  roomGrade: string | null,
): TMicrobialJudgement {
  const { limit, limitSource } = microbialLimit(policy.content, value.kind, roomGrade);
  const judgement = judgeMicrobial({
    ...value,
    limit,
    limitSource,
    alertLevelPercentage: policy.content.alertLevelPercentage,
  });
  return {
    ...judgement,
    derivation: [`Microbial limit policy version ${policy.versionNumber}`, ...judgement.derivation],
  };
}

/** The columns of a microbial count that store its judgement, as an entry and a correction write them. */
const judgementColumns = (judgement: TMicrobialJudgement) => ({
  judgement: JSON.stringify(judgement),
  percent_of_limit: judgement.percentOfLimit,
  censored_below: judgement.censoredBelow,
  outcome: judgement.judgement,
});

interface MicrobialOriginal {
  id: number;
  run_id: number;
  sampling_location_id: number | null;
  kind: TMicrobialKind;
  superseded_by: number | null;
}

/** Every problem of every row at once, by `<key>.<field>`. */
function microbialProblems(
  rows: TMicrobialResultInput[],
  runId: number,
  facts: {
    policy: PinnedMicrobialPolicy;
    locations: Map<number, MicrobialLocation>;
    methods: Map<number, { test_type: string | null }>;
    originals: Map<number, MicrobialOriginal>;
  },
): PropertyError[] {
  const errors: PropertyError[] = [];
  const problem = (key: string, field: string, message: string) =>
    errors.push({ property: `${key}.${field}`, constraints: { invalid: message } });
  const { policy } = facts;
  const version = `the run's microbial limit policy (version ${policy.versionNumber})`;
  const keys = new Set<string>();
  for (const row of rows) {
    const { key } = row;
    if (keys.has(key)) problem(key, 'key', `The key ${key} is used by two rows`);
    keys.add(key);
    if (!policy.content.useMicrobialLimits)
      problem(
        key,
        'kind',
        `Microbial results are not taken: ${version} does not use microbial limits`,
      );
    else if (row.kind === 'endotoxin' && !policy.content.useEndotoxinLimit)
      problem(key, 'kind', `Endotoxin results are not taken: ${version} sets no endotoxin limit`);
    if (row.samplingLocationId === null) {
      if (row.kind !== 'rinse' && row.kind !== 'endotoxin')
        problem(key, 'kind', 'The final rinse takes a rinse or endotoxin result only');
    } else if (!facts.locations.has(row.samplingLocationId))
      problem(key, 'samplingLocationId', "This location is not in the run's sampling plan");
    if (row.microbialMethodId) {
      const method = facts.methods.get(row.microbialMethodId);
      if (!method)
        problem(key, 'microbialMethodId', 'No such microbial analytical method in this facility');
      else if ((method.test_type === 'Endotoxin') !== (row.kind === 'endotoxin'))
        problem(
          key,
          'microbialMethodId',
          row.kind === 'endotoxin'
            ? 'An endotoxin result needs an endotoxin method'
            : 'An endotoxin method gives endotoxin results only',
        );
    }
    if (row.repeats) {
      const original = facts.originals.get(row.repeats.resultId);
      if (original && original.kind !== row.kind)
        problem(key, 'repeats', 'A repeat is the same microbial test as the result it repeats');
    }
  }
  errors.push(
    ...repeatProblems(rows, runId, (id) => {
      const original = facts.originals.get(id);
      return original && { ...original, batch_number: null };
    }),
  );
  return errors;
}

export async function enterMicrobialResults(
  db: Db,
  actor: Actor,
  scope: Scope,
  runId: number,
  rows: TMicrobialResultInput[],
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const run = await editableRun(tx, actor, scope, runId);
    const study = await studyOf(tx, scope.facilityId, run.study_id);
    const policy = await pinMicrobialPolicy(tx, scope.facilityId, runId);
    const methodIds = rows.flatMap((r) => (r.microbialMethodId ? [r.microbialMethodId] : []));
    const [locations, methodRows, originalRows] = await Promise.all([
      planLocations(tx, scope.facilityId, study),
      tx.query<{ id: number; test_type: string | null }>(
        `select id, test_type from microbial_methods
          where facility_id = $1 and id = any($2::int[]) and archived_at is null`,
        [scope.facilityId, methodIds],
      ),
      tx.query<MicrobialOriginal>(
        `select id, run_id, sampling_location_id, kind, superseded_by from microbial_results
          where facility_id = $1 and id = any($2::int[]) for update`,
        [scope.facilityId, rows.flatMap((r) => (r.repeats ? [r.repeats.resultId] : []))],
      ),
    ]);
    const methods = new Map(methodRows.map((m) => [m.id, m]));
    const originals = new Map(originalRows.map((o) => [o.id, o]));
    const errors = [
      ...microbialProblems(rows, runId, { policy, locations, methods, originals }),
      // FDA OOS guidance: a failing result is set aside only through an approved investigation.
      ...(await oosRepeatProblems(tx, scope.facilityId, actor.userId, rows, 'microbial_results')),
    ];
    if (errors.length > 0)
      throw new AppError('SampleChangesError', 'Some microbial results have problems.', { errors });
    for (const row of rows) {
      const location = row.samplingLocationId ? locations.get(row.samplingLocationId)! : null;
      const roomGrade = location?.roomGrade ?? null;
      const judgement = judged(policy, row, roomGrade);
      const inserted = await createRecord(tx, microbialResultType, {
        actor,
        scope,
        values: {
          run_id: runId,
          sampling_location_id: location?.id ?? null,
          equipment_id: location?.equipmentId ?? null,
          room_grade: roomGrade,
          kind: row.kind,
          microbial_method_id: row.microbialMethodId ?? null,
          censoring: row.censoring,
          raw_value: row.rawValue,
          unit: MICROBIAL_UNITS[row.kind],
          read_at: row.readAt ?? null,
          ...judgementColumns(judgement),
          ...repeatColumns(row.repeats),
        },
        audit: () => ({
          reason: row.repeats?.reason ?? null,
          newValues: {
            runId,
            ...row,
            unit: MICROBIAL_UNITS[row.kind],
            roomGrade,
            judgement,
            microbialPolicyVersion: policy.versionNumber,
          },
        }),
      });
      if (row.repeats)
        await supersede(tx, 'microbial_results', {
          facilityId: scope.facilityId,
          id: row.repeats.resultId,
          by: inserted.id as number,
          userId: actor.userId,
        });
    }
    await afterRunChange(tx, actor, scope, runId);
  });
}

type MicrobialEdit = z.infer<typeof ZMicrobialResultEdit>;

/** A correction of a microbial result (reason + version), judged again; answers its run's id. */
export async function editMicrobialResult(
  db: Db,
  actor: Actor,
  scope: Scope,
  id: number,
  body: MicrobialEdit,
): Promise<number> {
  return inTransaction(db, async (tx) => {
    const { current, run } = await openResult(
      tx,
      microbialResultType,
      actor,
      scope,
      id,
      body.version,
    );
    const before = {
      censoring: current.censoring as TMicrobialResultInput['censoring'],
      rawValue: Number(current.raw_value),
      readAt: current.read_at ? new Date(current.read_at as string).toISOString() : null,
    };
    const next = {
      censoring: body.censoring ?? before.censoring,
      rawValue: body.rawValue ?? before.rawValue,
      readAt:
        body.readAt === undefined
          ? before.readAt
          : body.readAt && new Date(body.readAt).toISOString(),
    };
    if (Object.entries(next).every(([k, v]) => before[k as keyof typeof before] === v))
      throw new AppError('NothingToChangeError');
    // The run's pinned policy and the room grade the result was entered with: a correction
    // changes the value, never the rule it is judged by.
    const policy = await pinMicrobialPolicy(tx, scope.facilityId, run.id);
    const judgement = judged(
      policy,
      { kind: current.kind as TMicrobialKind, ...next },
      current.room_grade as string | null,
    );
    await refuseCorrectionOutOfSpecification(
      tx,
      scope.facilityId,
      { microbial: current.outcome as TMicrobialJudgement['judgement'] },
      { microbial: judgement.judgement },
    );
    await writeRecord(tx, microbialResultType, {
      actor,
      scope,
      row: current,
      set: {
        censoring: next.censoring,
        raw_value: next.rawValue,
        read_at: next.readAt,
        ...judgementColumns(judgement),
      },
      audit: {
        action: 'Update',
        reason: body.reason,
        oldValues: { ...before, judgement: current.judgement },
        newValues: { ...next, judgement },
      },
    });
    await afterRunChange(tx, actor, scope, run.id);
    return run.id;
  });
}
