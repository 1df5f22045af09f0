import type { CleaningLimitPolicy } from '../limits/policy.ts';
import type { SamplingSpec } from '../limits/model.ts';
import { UnitKindError, convertValue, toBase } from '../units/quantity.ts';
import type { Quantity } from '../units/quantity.ts';
import { isUnit, kindOf } from '../units/units.ts';
import type { UnitOf } from '../units/units.ts';

export type SampleType = 'swab' | 'rinse';

/** Units the impact shows its limits in; the rinse limit may be shown in ppm (mg/L in water). */
export interface ImpactUnits {
  maco: UnitOf<'mass'>;
  sal: UnitOf<'surfaceLimit'>;
  swab: UnitOf<'swabLimit'>;
  rinse: UnitOf<'rinseConcentration'> | 'ppm';
}

/** The policy's own display units (spec §3 limitRepresentation). */
export function policyUnits(policy: CleaningLimitPolicy): ImpactUnits {
  const representation = policy.limitRepresentation;
  const rinse = representation.reporting.rinse.concentrationLimitUnit;
  return {
    maco: 'mg',
    sal: representation.productAndEquipmentLimits.salMassUnit === 'ug' ? 'ug/sqcm' : 'mg/sqcm',
    swab: representation.reporting.swab.perSampleLimitUnit === 'ug' ? 'ug/swab' : 'mg/swab',
    rinse,
  };
}

/** A rinse concentration in mg/ml shown in `unit`; ppm is mg/L in aqueous samples (reference §0). */
export function rinseIn(mgPerMl: number, unit: ImpactUnits['rinse']): number {
  return unit === 'ppm' ? mgPerMl * 1_000 : convertValue(mgPerMl, 'mg/ml', unit);
}

const unitKind = (q: Quantity<string>) => (isUnit(q.unit) ? kindOf(q.unit) : undefined);

/**
 * An amount measured in (or detectable in) one sample, in the engine's unit for that sample: mg
 * per swab, or mg/ml of rinse. A swab may be given per swab or as a concentration in its extract
 * (× the extraction volume); a rinse as a concentration or per rinse (÷ the rinse volume). A
 * concentration in ppm counts as mg/L (aqueous samples, reference §0). Anything else throws: a
 * value is never compared in a unit it was not given in.
 */
export function sampleAmount(
  q: Quantity<string>,
  sampleType: SampleType,
  sampling: SamplingSpec,
  what: string,
): number {
  const kind = unitKind(q);
  const concentration =
    kind === 'rinseConcentration'
      ? toBase(q, 'rinseConcentration')
      : kind === 'concentration'
        ? toBase(q, 'concentration') / 1_000
        : Number.NaN;
  if (sampleType === 'swab') {
    if (kind === 'swabLimit') return toBase(q, 'swabLimit');
    if (!Number.isNaN(concentration)) {
      if (!sampling.extractionVolume) {
        throw new Error(`${what}: a swab amount in ${q.unit} needs the swab extraction volume`);
      }
      return concentration * toBase(sampling.extractionVolume, 'volume');
    }
    throw new UnitKindError(['swabLimit', 'rinseConcentration', 'concentration'], q.unit);
  }
  if (!Number.isNaN(concentration)) return concentration;
  if (kind === 'rinseLimit') {
    if (!sampling.rinseVolume) {
      throw new Error(`${what}: a rinse amount in ${q.unit} needs the rinse volume`);
    }
    return toBase(q, 'rinseLimit') / toBase(sampling.rinseVolume, 'volume');
  }
  throw new UnitKindError(['rinseConcentration', 'concentration', 'rinseLimit'], q.unit);
}
