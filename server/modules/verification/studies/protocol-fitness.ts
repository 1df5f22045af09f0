import type { LimitsInput } from '#core/limits/model.ts';
import type { TResultUnit } from '#core/schemas/verification.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import {
  cannotShow,
  detectionIn,
  residueOf,
  studyCarbonFraction,
  limitAt,
  limitUnitOf,
  recoveryAt,
  type LocationFacts,
  type MethodFacts,
  type StudyOfRun,
} from '../runs/run-plan.ts';
import { snapshotNames } from '../runs/snapshot-names.ts';
import { studySnapshotId } from './study-snapshot.ts';

/*
 * Whether a protocol's method can show the limit at its location: the limit a run of a study of
 * this protocol would judge against (the snapshot the protocol names, else the facility's latest,
 * as starting a study picks it), and the method's LOQ and recovery as a run reads them. A limit
 * below what the method can quantify cannot be verified (ICH Q2(R2) on the quantitation limit;
 * EU GMP Annex 15 §10.11: the methods must be validated and sensitive enough for the limits).
 */

/** The study a study of the protocol would be, as far as its limits go; null without a snapshot. */
export async function studyAsPlanned(
  q: Queryable,
  facilityId: number,
  record: Readonly<Record<string, unknown>>,
  locationIds: readonly number[],
): Promise<StudyOfRun | null> {
  const id = await studySnapshotId(q, facilityId, record.limitsSnapshotId);
  const [snapshot] = await q.query<{ input: LimitsInput; created_at: Date }>(
    'select input, created_at from limits_snapshots where facility_id = $1 and id = $2',
    [facilityId, id],
  );
  if (!snapshot) return null;
  const productIds = Array.isArray(record.productIds) ? (record.productIds as number[]) : [];
  const productGroupId = typeof record.productGroupId === 'number' ? record.productGroupId : null;
  const names = await snapshotNames(q, {
    facilityId,
    productIds,
    productGroupId,
    locationIds,
    pinnedAt: new Date(),
    snapshotAt: snapshot.created_at,
  });
  return {
    id: 0,
    seq: 0,
    closed_at: null,
    protocol_content: {
      productIds,
      productGroupId,
      limitBasis: typeof record.limitBasis === 'string' ? record.limitBasis : null,
    },
    snapshot_input: snapshot.input,
    product_names: names.productNames,
    equipment_names: names.equipmentNames,
    carbon_fraction: await studyCarbonFraction(
      q,
      facilityId,
      snapshot.input,
      names.productNames,
      snapshot.created_at,
    ),
  };
}

/** The limit at a location, the pair that sets it, and why the method cannot show it (or null). */
export interface MethodFit {
  limit: number | null;
  unit: TResultUnit;
  pair: string | null;
  problem: string | null;
}

/**
 * The limit at the location and the reason the method cannot show it, as a result's judgement
 * would find it (LOQ ÷ recovery above it, or an LOQ that cannot be expressed in the limit's
 * unit). Where no limit applies there is nothing to compare: no problem.
 */
export function methodFit(
  study: StudyOfRun,
  location: LocationFacts,
  method: MethodFacts,
): MethodFit {
  const unit = limitUnitOf(location.sampleType);
  let at: ReturnType<typeof limitAt>;
  try {
    at = limitAt(study, location, unit);
  } catch {
    // A snapshot whose input gives no limit here (an incomplete one) has nothing to compare.
    return { limit: null, unit, pair: null, problem: null };
  }
  const { recovery } = recoveryAt(study, location, method);
  const detection = detectionIn(study, location, method, unit);
  return {
    limit: at.limit,
    unit,
    pair: 'pair' in at && at.pair ? at.pair : null,
    problem: cannotShow(at.limit, unit, recovery, detection, method.name, residueOf(study, method)),
  };
}

/** Why the method cannot show the limit at the location (methodFit), or null. */
export const methodFitProblem = (
  study: StudyOfRun,
  location: LocationFacts,
  method: MethodFacts,
): string | null => methodFit(study, location, method).problem;
