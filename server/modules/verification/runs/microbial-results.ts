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
import { studyOf } from './runs.read.ts';
import {
  afterRunChange,
  auditRun,
  editableOfRun,
  editableRun,
  inTransaction,
  type Scope,
} from './runs.service.ts';

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
      const [inserted] = await tx.query<{ id: number }>(
        `insert into microbial_results (facility_id, run_id, sampling_location_id, equipment_id,
           room_grade, kind, microbial_method_id, censoring, raw_value, unit, read_at, judgement,
           percent_of_limit, censored_below, outcome, repeats_result_id, repeat_kind,
           repeat_reason, created_by, updated_by)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
           $19, $19)
         returning id`,
        [
          scope.facilityId,
          runId,
          location?.id ?? null,
          location?.equipmentId ?? null,
          roomGrade,
          row.kind,
          row.microbialMethodId ?? null,
          row.censoring,
          row.rawValue,
          MICROBIAL_UNITS[row.kind],
          row.readAt ?? null,
          JSON.stringify(judgement),
          judgement.percentOfLimit,
          judgement.censoredBelow,
          judgement.judgement,
          row.repeats?.resultId ?? null,
          row.repeats?.kind ?? null,
          row.repeats?.reason ?? null,
          actor.userId,
        ],
      );
      const id = inserted!.id;
      if (row.repeats)
        await supersede(tx, 'microbial_results', {
          id: row.repeats.resultId,
          by: id,
          userId: actor.userId,
        });
      await auditRun(tx, actor, scope, {
        domain: 'MicrobialResult',
        action: 'Create',
        entityId: id,
        reason: row.repeats?.reason ?? null,
        newValues: {
          runId,
          ...row,
          unit: MICROBIAL_UNITS[row.kind],
          roomGrade,
          judgement,
          microbialPolicyVersion: policy.versionNumber,
        },
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
    const { current, run } = await editableOfRun(tx, actor, scope, {
      table: 'microbial_results',
      label: 'Microbial result',
      id,
      version: body.version,
    });
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
    await tx.query(
      `update microbial_results set censoring = $2, raw_value = $3, read_at = $4, judgement = $5,
              percent_of_limit = $6, censored_below = $7, outcome = $8, version = version + 1,
              updated_at = now(), updated_by = $9
        where id = $1`,
      [
        id,
        next.censoring,
        next.rawValue,
        next.readAt,
        JSON.stringify(judgement),
        judgement.percentOfLimit,
        judgement.censoredBelow,
        judgement.judgement,
        actor.userId,
      ],
    );
    await auditRun(tx, actor, scope, {
      domain: 'MicrobialResult',
      action: 'Update',
      entityId: id,
      reason: body.reason,
      oldValues: { ...before, judgement: current.judgement },
      newValues: { ...next, judgement },
    });
    await afterRunChange(tx, actor, scope, run.id);
    return run.id;
  });
}
