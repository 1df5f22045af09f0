import type { Quantity, QuantityOf } from '../units/quantity.ts';

/** Spec §3 "Residue types". */
export const RESIDUE_TYPES = ['Chemical', 'Detergent', 'Intermediate', 'Nitrosamine'] as const;
export type ResidueType = (typeof RESIDUE_TYPES)[number];

export const AREA_BASES = ['shared', 'previousTrain'] as const;
export type AreaBasis = (typeof AREA_BASES)[number];

/** Spec §3 "Mass units" and "Concentration units" used by limitRepresentation. */
export type SalMassUnit = 'mg' | 'ug';
export type SampleLimitUnit = 'ppm' | 'mg/ml' | 'ug/ml';

export interface SampleLimitRepresentation {
  usePerSampleLimit: boolean;
  unit: SampleLimitUnit;
}

export interface SampleReporting {
  showSar: boolean;
  showPerSampleResidue: boolean;
  showConcentration: boolean;
  perSampleLimitUnit: 'mg' | 'ug';
  concentrationLimitUnit: SampleLimitUnit;
}

/**
 * How limits are shown and recorded (spec §3 `limitRepresentation`), and the units the sample
 * limits and fixed limits are entered in: what each part does is in policy-fields.ts.
 */
export interface LimitRepresentation {
  productAndEquipmentLimits: { salMassUnit: SalMassUnit };
  sampleLimits: { swab: SampleLimitRepresentation; rinse: SampleLimitRepresentation };
  sampleRecordingLimits: { swab: SampleLimitRepresentation; rinse: SampleLimitRepresentation };
  reporting: { swab: SampleReporting; rinse: SampleReporting };
}

/**
 * The cleaning limit policy of spec §3, one per residue type, plus the factors the contract adds
 * (body weight and empirical factor of the LD50 route, area basis).
 *
 * Meanings the specification does not spell out, decided here:
 * - `useProductLimit`: a limit recorded on the previous product itself (`productLimit`, a MACO in
 *   mass) becomes one more criterion, `product`, after the four of the contract.
 * - `ignoreCombo`: with a combination product as previous, limits are normally governed by its
 *   most restrictive active; with `ignoreCombo` each active is reported on its own as well
 *   (`perActive`) so that an active-specific method can be given its own limit.
 * - `useSAR`: sample limits derive from the surface limit (L3 × sampled area, LeBlanc). Without
 *   it the rinse limit is the APIC target value MACO / rinse volume, which assumes the rinse
 *   reaches the whole shared surface.
 * - `modificationFactor`: an extra divisor (≥ 1) on the health-based criterion only, for the
 *   additional margin EMA's Q&A expects for highly hazardous products. Default 1.
 * - `useSampleLimit`: swab and rinse limits are capped at `swabSampleLimit` / `rinseSampleLimit`
 *   (concentration in the sample, unit from `limitRepresentation.sampleLimits`).
 * - `useFixedSampleLimits`: the company's fixed swab and rinse limits are ceilings: each is used
 *   where it is lower than the calculated limit, never in place of a lower one (LeBlanc "default
 *   limits": a default is a ceiling, not an either/or choice).
 */
export interface CleaningLimitPolicy {
  residueType: ResidueType;
  useToxicity: boolean;
  useDosage: boolean;
  useLd50: boolean;
  useARL: boolean;
  /** L5, the general limit in the next product. */
  arl: Quantity<'ppm'>;
  useResidueLimit: boolean;
  /** L3, a cap on the surface limit. */
  residueLimit: QuantityOf<'surfaceLimit'>;
  useFirstAvailableCriteria: boolean;
  useProductLimit: boolean;
  ignoreCombo: boolean;
  useGlobalRecoveryPercentage: boolean;
  /** 0 < p ≤ 100 */
  globalRecoveryPercentage: number;
  useSAR: boolean;
  limitRepresentation: LimitRepresentation;
  /** Intermediate policy: general limit for an intermediate residue, ppm. */
  intermediateArl: Quantity<'ppm'>;
  /** Intermediate policy: general limit for actives, ppm (spec §3). */
  activesArl: Quantity<'ppm'>;
  useSampleLimit: boolean;
  swabSampleLimit: number;
  rinseSampleLimit: number;
  useFixedSampleLimits: boolean;
  fixedSwabLimit: number;
  fixedRinseLimit: number;
  /** A divisor (APIC convention), ≥ 1. Fixed at 1000 for Intermediate (spec §3). */
  safetyFactor: number;
  modificationFactor: number;
  /** APIC LD50 route: NOEL = LD50 × BW / EF, BW 70 kg, EF 2000. */
  bodyWeight: QuantityOf<'mass'>;
  ld50EmpiricalFactor: number;
  areaBasis: AreaBasis;
}

function sampleRepresentation(): SampleLimitRepresentation {
  return { usePerSampleLimit: false, unit: 'ppm' };
}

function reporting(): SampleReporting {
  return {
    showSar: true,
    showPerSampleResidue: true,
    showConcentration: true,
    perSampleLimitUnit: 'mg',
    concentrationLimitUnit: 'ppm',
  };
}

export function defaultLimitRepresentation(): LimitRepresentation {
  return {
    productAndEquipmentLimits: { salMassUnit: 'mg' },
    sampleLimits: { swab: sampleRepresentation(), rinse: sampleRepresentation() },
    sampleRecordingLimits: { swab: sampleRepresentation(), rinse: sampleRepresentation() },
    reporting: { swab: reporting(), rinse: reporting() },
  };
}

/** Safety factor that the Intermediate policy always uses (spec §3, §9). */
export const INTERMEDIATE_SAFETY_FACTOR = 1000;

/**
 * Defaults of spec §3 and §9 (ARL 10 ppm, residue limit 10 in the L3 default unit mg/sqcm,
 * recovery 100 %, sample limits 10) and of the limits contract (SF 1000, BW 70 kg, EF 2000).
 */
export function defaultPolicy(residueType: ResidueType = 'Chemical'): CleaningLimitPolicy {
  return {
    residueType,
    useToxicity: true,
    // A cleaning agent or an intermediate has no therapeutic dose; a nitrosamine is limited by
    // its acceptable intake (ICH M7), never by a fraction of a dose.
    useDosage: residueType === 'Chemical',
    // Detergents usually have only an LD50 (APIC, reference §3), so the LD50 route is on for them.
    useLd50: residueType === 'Detergent',
    useARL: true,
    arl: { value: 10, unit: 'ppm' },
    useResidueLimit: false,
    residueLimit: { value: 10, unit: 'mg/sqcm' },
    useFirstAvailableCriteria: false,
    useProductLimit: false,
    ignoreCombo: false,
    useGlobalRecoveryPercentage: false,
    globalRecoveryPercentage: 100,
    useSAR: true,
    limitRepresentation: defaultLimitRepresentation(),
    intermediateArl: { value: 10, unit: 'ppm' },
    activesArl: { value: 10, unit: 'ppm' },
    useSampleLimit: false,
    swabSampleLimit: 10,
    rinseSampleLimit: 10,
    useFixedSampleLimits: false,
    fixedSwabLimit: 10,
    fixedRinseLimit: 10,
    safetyFactor: 1000,
    modificationFactor: 1,
    bodyWeight: { value: 70, unit: 'kg' },
    ld50EmpiricalFactor: 2000,
    areaBasis: 'shared',
  };
}

/** One policy per residue type, as the specification keeps them. */
export function defaultPolicies(): Record<ResidueType, CleaningLimitPolicy> {
  return {
    Chemical: defaultPolicy('Chemical'),
    Detergent: defaultPolicy('Detergent'),
    Intermediate: defaultPolicy('Intermediate'),
    Nitrosamine: defaultPolicy('Nitrosamine'),
  };
}

/** The safety factor actually applied: Intermediate ignores the configured value. */
export function effectiveSafetyFactor(policy: CleaningLimitPolicy): number {
  return policy.residueType === 'Intermediate' ? INTERMEDIATE_SAFETY_FACTOR : policy.safetyFactor;
}

/** The general limit in ppm actually applied for the policy's residue type. */
export function effectiveArl(policy: CleaningLimitPolicy): Quantity<'ppm'> {
  return policy.residueType === 'Intermediate' ? policy.activesArl : policy.arl;
}

/** r in the contract: the fraction of residue the sampling recovers, 1 when not used. */
export function recoveryFraction(policy: CleaningLimitPolicy): number {
  return policy.useGlobalRecoveryPercentage ? policy.globalRecoveryPercentage / 100 : 1;
}

/**
 * The recovery of one kind of sample: the sampling type's own recovery (percent) where it has
 * one, the policy's global recovery where that is switched on, the lower of the two where both
 * apply (a measured recovery is never replaced by a better assumed one), else 1.
 */
export function sampleRecoveryFraction(
  policy: CleaningLimitPolicy,
  ownPercentage: number | undefined,
): number {
  const global = recoveryFraction(policy);
  if (ownPercentage === undefined || !(ownPercentage > 0)) return global;
  return Math.min(global, Math.min(ownPercentage, 100) / 100);
}
