import { sampleAmount } from '../assessments/impact-units.ts';
import type { SampleType } from '../assessments/impact-units.ts';
import type { TMethodLimitSide } from '../schemas/analytical-methods.schemas.ts';
import type { Quantity } from '../units/quantity.ts';
import { isLower } from './compile.ts';
import type { EquipmentLimits } from './limit-reports.ts';
import type { SamplingSpec } from './model.ts';

/** A sample that names the method: on which equipment, swab or rinse. */
export interface MethodUse {
  equipmentId: number;
  equipmentName: string;
  sampleType: SampleType;
}

export interface MethodLimitFitInput {
  methodName: string;
  loq: Quantity<string> | null;
  uses: readonly MethodUse[];
  /** The equipment-limits report's rows (by equipment name), in mg/swab and mg/ml. */
  equipment: readonly EquipmentLimits[];
  sampling: SamplingSpec;
}

const UNIT = { swab: 'mg/swab', rinse: 'mg/ml' } as const;

/**
 * The tightest swab or rinse limit among the equipment whose samples name the method, against
 * the method's LOQ in the same unit: a limit below the LOQ cannot be verified (DOMAIN.md,
 * analytical methods). The LOQ is converted as a result's LOQ is (`sampleAmount`: a swab's
 * concentration in its extract × the extraction volume), never compared in a unit it was not
 * given in.
 */
export function methodLimitSide(
  input: MethodLimitFitInput,
  sampleType: SampleType,
): TMethodLimitSide {
  const uses = input.uses.filter((u) => u.sampleType === sampleType);
  const byName = new Map(input.equipment.map((e) => [e.id, e]));
  let tightest: { limit: number; use: MethodUse; pair: [string, string] | null } | null = null;
  for (const use of uses) {
    const lowest = byName.get(use.equipmentName)?.[sampleType];
    if (!lowest || Number.isNaN(lowest.value)) continue;
    if (!tightest || isLower(lowest.value, tightest.limit)) {
      tightest = { limit: lowest.value, use, pair: lowest.pair };
    }
  }
  let loq: number | null = null;
  let loqNote: string | null = null;
  if (!input.loq) loqNote = 'The method has no LOQ.';
  else {
    try {
      loq = sampleAmount(input.loq, sampleType, input.sampling, input.methodName);
    } catch (error) {
      loqNote = `The LOQ cannot be compared with a ${sampleType} limit: ${(error as Error).message}.`;
    }
  }
  const limitNote =
    uses.length === 0
      ? `No ${sampleType} sample names this method.`
      : tightest
        ? null
        : `No ${sampleType} limit is computed for the equipment this method is used on.`;
  return {
    limit: tightest?.limit ?? null,
    equipmentId: tightest?.use.equipmentId ?? null,
    equipmentName: tightest?.use.equipmentName ?? null,
    pair: tightest?.pair ?? null,
    loq,
    unit: UNIT[sampleType],
    canDetect: tightest && loq !== null ? loq <= tightest.limit : null,
    note: limitNote ?? loqNote,
    sampleCount: uses.length,
  };
}
