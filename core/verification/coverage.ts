import type { TEquipmentState } from '../schemas/dashboard.schemas.ts';
import type { TStudyOutcome } from '../schemas/verification.schemas.ts';

/*
 * The coverage model (issue 26, "One truth"): which equipment and products a study covers, and
 * what that makes of an item of equipment. The dashboard, the studies' Overdue filter, the
 * cleaning assessment's coverage matrix and the annual summary all read it, so no two screens
 * answer differently for one item (EU GMP Annex 15 §10.1: the validated state of each item of
 * equipment rests on the studies that covered it).
 */

/** What of a study's pinned protocol says what it covers. */
export interface ProtocolScope {
  productionId?: number | null | undefined;
  /** The equipment train the protocol names (issue 32); absent from versions made before. */
  trainId?: number | null | undefined;
  equipmentIds?: readonly number[] | null | undefined;
  productIds?: readonly number[] | null | undefined;
  samplingPlan?: readonly { samplingLocationId: number }[] | null | undefined;
}

/** How the facility's records answer what the scope names. */
export interface ScopeLookups {
  /** The equipment of a production (train); empty for an unknown one. */
  trainEquipment: (productionId: number) => readonly number[];
  /** The equipment of an equipment train; empty for an unknown one. */
  equipmentTrainItems: (trainId: number) => readonly number[];
  /** The item of equipment a sampling location belongs to, if known. */
  locationEquipment: (samplingLocationId: number) => number | undefined;
}

export interface StudyScope {
  productionId: number | null;
  productIds: number[];
  /** Sorted, each once. */
  equipmentIds: number[];
}

/**
 * A study covers the equipment its protocol lists, or, when it lists none, every item of its
 * equipment train, else of its production; and in each case the items its sampling plan
 * samples, since a result there is evidence about them.
 */
export function studyScope(protocol: ProtocolScope, lookups: ScopeLookups): StudyScope {
  const productionId = protocol.productionId ?? null;
  const trainId = protocol.trainId ?? null;
  const listed = protocol.equipmentIds ?? [];
  const equipment = new Set<number>(
    listed.length > 0
      ? listed
      : trainId !== null
        ? lookups.equipmentTrainItems(trainId)
        : productionId === null
          ? []
          : lookups.trainEquipment(productionId),
  );
  for (const row of protocol.samplingPlan ?? []) {
    const item = lookups.locationEquipment(row.samplingLocationId);
    if (item !== undefined) equipment.add(item);
  }
  return {
    productionId,
    productIds: [...new Set(protocol.productIds ?? [])],
    equipmentIds: [...equipment].sort((a, b) => a - b),
  };
}

/** A study as the coverage model sees it. */
export interface CoveringStudy extends StudyScope {
  id: number;
  outcome: TStudyOutcome;
  /** When its outcome was reached: closed, else last changed (ISO). */
  at: string;
}

/** Each item's study: the latest (highest id) whose scope covers it, or none. */
export function latestStudyOf<S extends CoveringStudy>(
  equipmentIds: readonly number[],
  studies: readonly S[],
): Map<number, S | null> {
  const latest = new Map<number, S>();
  for (const study of studies)
    for (const id of study.equipmentIds) {
      const known = latest.get(id);
      if (!known || known.id < study.id) latest.set(id, study);
    }
  return new Map(equipmentIds.map((id) => [id, latest.get(id) ?? null]));
}

const DAY_MS = 86_400_000;

/**
 * An item's validation state from its latest study: Not covered without one; a Validated study
 * older than the periodic verification frequency is Overdue; else the study's outcome.
 */
export function validationState(
  study: Pick<CoveringStudy, 'outcome' | 'at'> | null,
  now: Date,
  periodicDays: number,
): TEquipmentState {
  if (!study) return 'Not covered';
  if (study.outcome === 'Validated' && Date.parse(study.at) < now.getTime() - periodicDays * DAY_MS)
    return 'Overdue';
  return study.outcome;
}
