import type { TMicrobialPolicy } from '#core/schemas/facility-rules.schemas.ts';
import { MICROBIAL_POLICY_DEFAULTS } from '#core/schemas/facility-rules.schemas.ts';
import {
  MICROBIAL_KINDS,
  type TMicrobialKind,
  type TMicrobialResult,
  type TRunMicrobial,
} from '#core/schemas/verification.schemas.ts';
import { microbialLimit } from '#core/verification/judge-microbial.ts';
import {
  FINAL_RINSE,
  microbialKey,
  microbialLabel as labelOf,
  type MicrobialRunState,
} from '#core/verification/release-microbial.ts';
import { resultLinksOf } from './investigations.read.ts';
import type { Queryable } from '#server/db/db.ts';
import { contentInForce } from '#server/modules/policies/policy-in-force.ts';
import { locationFacts, type StudyOfRun } from './run-plan.ts';
import type { RunRow } from './runs.read.ts';

/*
 * The microbial side of a run (core/verification/README.md, "Microbial results"): the microbial
 * limit policy version pinned on the run when it started (or when its first microbial result
 * came in), the protocol's microbial sampling with its limits (room grade of the location's
 * equipment), the microbial results, and what the verdict and release flag take from them.
 */

export interface PinnedMicrobialPolicy {
  content: TMicrobialPolicy;
  versionNumber: number;
}

type RunPin = Pick<RunRow, 'id'> & {
  microbial_policy?: TMicrobialPolicy | null;
  microbial_policy_version?: number | null;
};

const pinnedOf = (run: RunPin): PinnedMicrobialPolicy | null =>
  run.microbial_policy && run.microbial_policy_version
    ? {
        content: { ...MICROBIAL_POLICY_DEFAULTS, ...run.microbial_policy },
        versionNumber: run.microbial_policy_version,
      }
    : null;

/** The approved microbial policy now (what a run not yet pinned would pin). */
async function policyInForce(q: Queryable, facilityId: number): Promise<PinnedMicrobialPolicy> {
  const found = await contentInForce<Partial<TMicrobialPolicy>>(q, facilityId, 'Microbial');
  return {
    content: { ...MICROBIAL_POLICY_DEFAULTS, ...found.content },
    versionNumber: found.versionNumber,
  };
}

/**
 * The run's microbial policy: the pinned one, else the version in force now, pinned on the run so
 * that later policy changes never re-judge it. `pinnedNow` tells the caller to name the pinned
 * version in the audit row of the change that pinned it.
 */
export async function pinMicrobialPolicy(
  tx: Queryable,
  facilityId: number,
  runId: number,
): Promise<PinnedMicrobialPolicy & { pinnedNow: boolean }> {
  const [run] = await tx.query<RunPin>(
    `select id, microbial_policy, microbial_policy_version from study_runs where id = $1`,
    [runId],
  );
  const pinned = pinnedOf(run!);
  if (pinned) return { ...pinned, pinnedNow: false };
  const policy = await policyInForce(tx, facilityId);
  await tx.query(
    `update study_runs set microbial_policy = $2, microbial_policy_version = $3 where id = $1`,
    [runId, JSON.stringify(policy.content), policy.versionNumber],
  );
  return { ...policy, pinnedNow: true };
}

/**
 * When an edit of the cleaning event leaves the run started and it has no microbial policy
 * pinned yet, the one in force now, to pin with the edit; null otherwise.
 */
export async function microbialPolicyToPin(
  q: Queryable,
  facilityId: number,
  run: RunPin,
  startedAt: Date | string | null,
): Promise<PinnedMicrobialPolicy | null> {
  if (!startedAt || pinnedOf(run)) return null;
  return policyInForce(q, facilityId);
}

interface PlannedMicrobial {
  samplingLocationId?: number | null;
  kind: TMicrobialKind;
  microbialMethodId?: number | null;
}

export interface MicrobialLocation {
  id: number;
  name: string;
  equipmentId: number;
  equipmentName: string;
  roomGrade: string | null;
}

/** The protocol's microbial sampling (optional: protocols before it plan none). */
const microbialPlanOf = (study: StudyOfRun): PlannedMicrobial[] =>
  (study.protocol_content as { microbialSampling?: PlannedMicrobial[] | null }).microbialSampling ??
  [];

/** The locations a microbial result may be taken at: the run plan's (chemical and microbial). */
export async function planLocations(
  q: Queryable,
  facilityId: number,
  study: StudyOfRun,
): Promise<Map<number, MicrobialLocation>> {
  const ids = [
    ...(study.protocol_content.samplingPlan ?? []).map((p) => p.samplingLocationId),
    ...microbialPlanOf(study).flatMap((p) => (p.samplingLocationId ? [p.samplingLocationId] : [])),
  ];
  const facts = await locationFacts(
    q,
    facilityId,
    [...new Set(ids)].sort((a, b) => a - b),
  );
  return new Map(
    [...facts.values()]
      .sort((a, b) => a.id - b.id)
      .map((l) => [
        l.id,
        {
          id: l.id,
          name: l.name,
          equipmentId: l.equipmentId,
          equipmentName: l.equipmentName,
          roomGrade: l.roomGrade,
        },
      ]),
  );
}

/** The microbial results of run `run` (an SQL parameter), as `toMicrobialResult` takes them. */
export const microbialResultRowsSql = (run: string) =>
  `select r.*, l.name as location_name, e.name as equipment_name, m.name as method_name,
          trim(concat(u.first_name, ' ', u.last_name)) as entered_by,
          i.seq as invalidated_seq
     from microbial_results r
     left join investigations i on i.id = r.invalidated_by_investigation
     left join sampling_locations l on l.id = r.sampling_location_id
     left join equipment e on e.id = r.equipment_id
     left join microbial_methods m on m.id = r.microbial_method_id
     left join users u on u.id = r.created_by
    where r.run_id = ${run}`;

export async function microbialResultsOf(q: Queryable, runId: number): Promise<TMicrobialResult[]> {
  const rows = await q.query<Record<string, any>>( // eslint-disable-line @typescript-eslint/no-explicit-any -- mapped field by field below
    `${microbialResultRowsSql('$1')} order by r.id`,
    [runId],
  );
  return rows.map(toMicrobialResult);
}

/** A microbial result from its row (its timestamps as dates or, read as JSON, as strings). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- mapped field by field below
export function toMicrobialResult(r: Record<string, any>): TMicrobialResult {
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
  return {
    id: r.id,
    runId: r.run_id,
    samplingLocationId: r.sampling_location_id,
    samplingLocationName: r.location_name ?? FINAL_RINSE,
    equipmentId: r.equipment_id,
    equipmentName: r.equipment_name,
    roomGrade: r.room_grade,
    kind: r.kind,
    microbialMethodId: r.microbial_method_id,
    microbialMethodName: r.method_name,
    censoring: r.censoring,
    rawValue: Number(r.raw_value),
    unit: r.unit,
    judgement: r.judgement,
    ...resultLinksOf(r),
    readAt: iso(r.read_at),
    enteredAt: iso(r.created_at)!,
    enteredByName: r.entered_by || null,
    version: r.version,
  };
}

/**
 * What the run's verdict, release flag and signers' content read of its microbial side: the
 * pinned version, the plan's rows with their locations, the results (`read` when the caller
 * read them with the run's other children). No limit: those are judged into each result when
 * it is entered, so the policy in force need not be read (issue 34).
 */
export async function runMicrobialFacts(
  q: Queryable,
  facilityId: number,
  run: RunPin,
  study: StudyOfRun,
  read?: TMicrobialResult[],
) {
  const [locations, results] = await Promise.all([
    planLocations(q, facilityId, study),
    read ?? microbialResultsOf(q, run.id),
  ]);
  const plan = microbialPlanOf(study).map((p) => {
    const location = p.samplingLocationId ? locations.get(p.samplingLocationId) : undefined;
    return {
      samplingLocationId: p.samplingLocationId ?? null,
      samplingLocationName: location?.name ?? FINAL_RINSE,
      kind: p.kind,
      microbialMethodId: p.microbialMethodId ?? null,
      roomGrade: location?.roomGrade ?? null,
    };
  });
  return { pinnedVersionNumber: pinnedOf(run)?.versionNumber ?? null, locations, plan, results };
}

export type RunMicrobialFacts = Awaited<ReturnType<typeof runMicrobialFacts>>;

/** The microbial side of the run for its screen: policy, plan with limits, locations, results. */
export async function runMicrobial(
  q: Queryable,
  facilityId: number,
  run: RunPin,
  study: StudyOfRun,
): Promise<TRunMicrobial> {
  const pinned = pinnedOf(run);
  const [policy, facts] = await Promise.all([
    pinned ?? policyInForce(q, facilityId),
    runMicrobialFacts(q, facilityId, run, study),
  ]);
  const { locations, results } = facts;
  const plan = facts.plan.map(({ roomGrade, ...p }) => {
    const { limit, unit, limitSource } = microbialLimit(policy.content, p.kind, roomGrade);
    const judged = p.kind === 'endotoxin' ? policy.content.useEndotoxinLimit : true;
    return {
      ...p,
      limit: policy.content.useMicrobialLimits && judged ? limit : null,
      unit,
      limitSource,
    };
  });
  const { content } = policy;
  const limitsOf = (kinds: readonly TMicrobialKind[], roomGrade: string | null) =>
    kinds
      .filter((kind) => kind !== 'endotoxin' || content.useEndotoxinLimit)
      .map((kind) => ({ kind, ...microbialLimit(content, kind, roomGrade) }));
  return {
    pinnedVersionNumber: facts.pinnedVersionNumber,
    policy: {
      versionNumber: policy.versionNumber,
      useMicrobialLimits: content.useMicrobialLimits,
      useEndotoxinLimit: content.useEndotoxinLimit,
      alertLevelPercentage: content.alertLevelPercentage,
    },
    plan,
    locations: [
      ...[...locations.values()].map((l) => ({
        samplingLocationId: l.id,
        samplingLocationName: l.name,
        roomGrade: l.roomGrade,
        limits: limitsOf(MICROBIAL_KINDS, l.roomGrade),
      })),
      {
        samplingLocationId: null,
        samplingLocationName: FINAL_RINSE,
        roomGrade: null,
        limits: limitsOf(['rinse', 'endotoxin'], null),
      },
    ],
    results,
  };
}

/** What the run's verdict and release flag take from its microbial results and plan. */
export function microbialRunState(
  microbial: Pick<RunMicrobialFacts, 'plan' | 'results'>,
): MicrobialRunState {
  return {
    planned: microbial.plan.map((p) => ({
      key: microbialKey(p.samplingLocationId, p.kind),
      label: labelOf(p.samplingLocationName, p.kind),
    })),
    results: microbial.results.map((r) => ({
      key: microbialKey(r.samplingLocationId, r.kind),
      label: labelOf(r.samplingLocationName, r.kind),
      judgement: r.judgement.judgement,
      percentOfLimit: r.judgement.percentOfLimit,
      superseded: r.supersededBy !== null,
    })),
  };
}
