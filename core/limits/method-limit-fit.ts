import { sampleAmount } from '../assessments/impact-units.ts';
import type { SampleType } from '../assessments/impact-units.ts';
import type { TMethodLimitSide } from '../schemas/analytical-methods.schemas.ts';
import type { Quantity } from '../units/quantity.ts';
import { formatQuantity } from '../units/format-number.ts';
import {
  residueConversion,
  type ResidueConversion,
  type TResidueMeasure,
} from '../verification/residue-measure.ts';
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
  /**
   * What the method measures and, by equipment name, the lowest carbon fraction of the actives
   * made on it (null where one states none); the active itself when absent.
   */
  residue?: { measure: TResidueMeasure; carbonFractions: ReadonlyMap<string, number | null> };
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
  const conversionOn = (use: MethodUse): ResidueConversion =>
    residueConversion({
      measure: input.residue?.measure ?? 'active',
      carbonFraction: input.residue?.carbonFractions.get(use.equipmentName) ?? null,
    });
  // Tightest in what the method measures (limit × carbon fraction for TOC, the limit itself
  // for the active): the limit hardest for this method to show. One it cannot convert to at
  // all is the hardest.
  let tightest: {
    limit: number;
    measured: number;
    use: MethodUse;
    pair: [string, string] | null;
    conversion: ResidueConversion;
  } | null = null;
  for (const use of uses) {
    const lowest = byName.get(use.equipmentName)?.[sampleType];
    if (!lowest || Number.isNaN(lowest.value)) continue;
    const conversion = conversionOn(use);
    const measured = conversion.ok ? lowest.value * conversion.factor : -Infinity;
    if (!tightest || isLower(measured, tightest.measured)) {
      tightest = { limit: lowest.value, measured, use, pair: lowest.pair, conversion };
    }
  }
  let loq: number | null = null;
  let loqNote: string | null = null;
  let loqConversion: string | null = null;
  if (!input.loq) loqNote = 'The method has no LOQ.';
  else {
    try {
      const measured = sampleAmount(input.loq, sampleType, input.sampling, input.methodName);
      // The LOQ in residue terms, as a result's is judged (judge-result.ts).
      const conversion =
        tightest?.conversion ?? residueConversion({ measure: 'active', carbonFraction: null });
      if (!conversion.ok) loqNote = `The LOQ cannot be stated as the active: ${conversion.why}.`;
      else {
        loq = measured / conversion.factor;
        loqConversion = conversion.line(
          formatQuantity(measured, UNIT[sampleType]),
          formatQuantity(loq, UNIT[sampleType]),
        );
      }
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
  const unconvertible = tightest !== null && !tightest.conversion.ok;
  return {
    limit: tightest?.limit ?? null,
    equipmentId: tightest?.use.equipmentId ?? null,
    equipmentName: tightest?.use.equipmentName ?? null,
    pair: tightest?.pair ?? null,
    loq,
    loqConversion,
    unit: UNIT[sampleType],
    canDetect: unconvertible ? false : tightest && loq !== null ? loq <= tightest.limit : null,
    note: limitNote ?? loqNote,
    sampleCount: uses.length,
  };
}
