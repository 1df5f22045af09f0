import { convertValue, toBase } from '../units/quantity.ts';
import type { QuantityOf } from '../units/quantity.ts';
import { apportion, extractLimit, rinseLimitFromMaco, rinseLimit, swabLimit } from './formulas.ts';
import { factorInput, input, result } from './derivation.ts';
import type { Derivation } from './derivation.ts';
import type { CleaningLimitPolicy } from './policy.ts';
import { CALCULATED, FIXED, PER_SAMPLE_CAP } from './matrix.ts';
import type { SampleRuleName } from './matrix.ts';
import { sampleRuleNote } from './explain-samples.ts';
import { recoveryFraction } from './policy.ts';

/**
 * Sample limits from a pair's (or a product's, or an item's) MACO and surface limit, with the
 * policy's recovery, per-sample caps and fixed limits (spec §3 cleaning limit policy).
 */

export interface SamplingPlan {
  swabArea?: QuantityOf<'area'>;
  /** Volume the swab is extracted into; needed for a concentration in the extract. */
  extractionVolume?: QuantityOf<'volume'>;
  rinseVolume?: QuantityOf<'volume'>;
  /** Area the sampling rinse actually contacts (LeBlanc: a partial rinse); default the whole area. */
  rinsedArea?: QuantityOf<'area'>;
}

export interface SampleLimitSource {
  /** mg */
  maco: number;
  /** mg/sqcm */
  sal: number;
  /** sqcm, the area the MACO is spread over */
  area: number;
}

export type SampleLimitBasis = SampleRuleName;

export interface SampleLimits {
  /** mg per swab, NaN without a swab area */
  swab: number;
  /** mg/ml in the swab extract, NaN without an extraction volume */
  swabExtract: number;
  /** mg/ml in the rinse, NaN without a rinse volume */
  rinse: number;
  swabBasis: SampleLimitBasis;
  rinseBasis: SampleLimitBasis;
  /** The recovery fraction that was multiplied in (never divided: reference §2.4). */
  recovery: number;
  derivations: { swab: Derivation; rinse: Derivation };
}

/** A concentration in the policy's sample-limit unit (ppm read as mg/L in water) in mg/ml. */
export function sampleConcentrationMgPerMl(value: number, unit: 'ppm' | 'mg/ml' | 'ug/ml'): number {
  // Reference §0: in aqueous samples 1 ppm = 1 mg/L = 1 ug/ml.
  return unit === 'ppm' ? value / 1_000 : convertValue(value, unit, 'mg/ml');
}

export function sampleLimits(
  source: SampleLimitSource,
  plan: SamplingPlan,
  policy: CleaningLimitPolicy,
): SampleLimits {
  const r = recoveryFraction(policy);
  const swabArea = plan.swabArea ? toBase(plan.swabArea, 'area') : Number.NaN;
  const extraction = plan.extractionVolume ? toBase(plan.extractionVolume, 'volume') : Number.NaN;
  const volume = plan.rinseVolume ? toBase(plan.rinseVolume, 'volume') : Number.NaN;
  const rinsed = plan.rinsedArea ? toBase(plan.rinsedArea, 'area') : source.area;

  let swab = swabLimit(source.sal, swabArea, r);
  let rinse = policy.useSAR
    ? rinseLimit(source.sal, rinsed, r, volume)
    : rinseLimitFromMaco(source.maco, r, volume);
  let swabBasis: SampleLimitBasis = 'calculated';
  let rinseBasis: SampleLimitBasis = 'calculated';
  const representation = policy.limitRepresentation.sampleLimits;

  if (policy.useSampleLimit) {
    // A per-sample ceiling in concentration: the extract for swabs, the rinse itself for rinses.
    const swabCap =
      sampleConcentrationMgPerMl(policy.swabSampleLimit, representation.swab.unit) * extraction;
    if (swabCap < swab) {
      swab = swabCap;
      swabBasis = 'perSampleCap';
    }
    const rinseCap = sampleConcentrationMgPerMl(policy.rinseSampleLimit, representation.rinse.unit);
    if (rinseCap < rinse) {
      rinse = rinseCap;
      rinseBasis = 'perSampleCap';
    }
  }
  if (policy.useFixedSampleLimits) {
    // The company's fixed limits are ceilings: used only where lower than the calculated limit.
    const perSampleUnit = policy.limitRepresentation.reporting.swab.perSampleLimitUnit;
    const fixedSwab = convertValue(policy.fixedSwabLimit, perSampleUnit, 'mg');
    const fixedRinse = sampleConcentrationMgPerMl(
      policy.fixedRinseLimit,
      policy.limitRepresentation.reporting.rinse.concentrationLimitUnit,
    );
    if (fixedSwab < swab) {
      swab = fixedSwab;
      swabBasis = 'fixed';
    }
    if (fixedRinse < rinse) {
      rinse = fixedRinse;
      rinseBasis = 'fixed';
    }
  }
  const recoveryInput = factorInput(
    'r',
    'recovery fraction',
    r,
    'cleaning limit policy: global recovery percentage',
  );
  const salInput = input(
    'SAL',
    'surface limit',
    { value: source.sal, unit: 'mg/sqcm' },
    source.sal,
    'mg/sqcm',
    'surface limit, derived above',
  );
  const RULE = { calculated: CALCULATED, perSampleCap: PER_SAMPLE_CAP, fixed: FIXED } as const;
  const basisNote = (basis: SampleLimitBasis) =>
    sampleRuleNote(RULE[basis], policy.useFixedSampleLimits);
  const swabNote = basisNote(swabBasis);
  const rinseNote = basisNote(rinseBasis);
  const derivations = {
    swab: {
      quantity: 'swab sample limit (L4a)',
      formula: 'swab = SAL × swab area × r',
      reference: 'LeBlanc L4a; recovery multiplies the limit (LeBlanc, recovery percentages)',
      inputs: [
        salInput,
        ...(plan.swabArea
          ? [input('As', 'swab area', plan.swabArea, swabArea, 'sqcm', 'sampling plan: swab area')]
          : []),
        recoveryInput,
      ],
      steps: [],
      result: result(swab, 'mg/swab'),
      ...(swabNote ? { note: swabNote } : {}),
    },
    rinse: {
      quantity: 'rinse sample limit (L4b)',
      formula: policy.useSAR ? 'rinse = SAL × area rinsed × r / V' : 'rinse = MACO × r / V',
      reference: policy.useSAR
        ? 'LeBlanc L4b (Jan 2009)'
        : 'APIC target value (rinse over the whole surface)',
      inputs: [
        policy.useSAR
          ? salInput
          : input(
              'MACO',
              'MACO',
              { value: source.maco, unit: 'mg' },
              source.maco,
              'mg',
              'governing MACO, derived above',
            ),
        ...(policy.useSAR
          ? [
              input(
                'A',
                'area rinsed',
                plan.rinsedArea ?? { value: rinsed, unit: 'sqcm' },
                rinsed,
                'sqcm',
                plan.rinsedArea ? 'sampling plan: area rinsed' : 'area, derived above',
              ),
            ]
          : []),
        recoveryInput,
        ...(plan.rinseVolume
          ? [
              input(
                'V',
                'rinse volume',
                plan.rinseVolume,
                volume,
                'ml',
                'sampling plan: rinse volume',
              ),
            ]
          : []),
      ],
      steps: [],
      result: result(rinse, 'mg/ml'),
      ...(rinseNote ? { note: rinseNote } : {}),
    },
  };
  return {
    swab,
    swabExtract: extractLimit(swab, extraction),
    rinse,
    swabBasis,
    rinseBasis,
    recovery: r,
    derivations,
  };
}

export interface EquipmentShare {
  id: string;
  area: QuantityOf<'area'>;
  /** Rinse volume used on this item, for its own rinse limit. */
  rinseVolume?: QuantityOf<'volume'>;
}

export interface EquipmentAllowance {
  id: string;
  /** mg of the MACO this item may carry */
  allowance: number;
  /** mg/ml, NaN without a rinse volume */
  rinseLimit: number;
}

/**
 * Equipment-wise apportionment (reference §2.2, case D20): each item carries MACO × A_i / ΣA, so
 * the surface limit is the same on every item and the allowances add up to the MACO.
 */
export function equipmentAllowances(
  macoMg: number,
  items: readonly EquipmentShare[],
  recovery = 1,
): EquipmentAllowance[] {
  const shares = apportion(
    macoMg,
    items.map((i) => toBase(i.area, 'area')),
  );
  return items.map((item, i) => {
    const allowance = shares[i] ?? Number.NaN;
    const volume = item.rinseVolume ? toBase(item.rinseVolume, 'volume') : Number.NaN;
    return { id: item.id, allowance, rinseLimit: rinseLimitFromMaco(allowance, recovery, volume) };
  });
}
