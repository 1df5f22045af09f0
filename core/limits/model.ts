import type { Quantity, QuantityOf } from '../units/quantity.ts';
import type { UnitOf } from '../units/units.ts';
import type { CleaningLimitPolicy } from './policy.ts';
import type { MacFormulaSpec } from './mac-formula.ts';

/** A batch size or daily dose: mass, volume (density 1 g/ml for the general limit) or units. */
export type AmountQuantity = Quantity<UnitOf<'mass'> | UnitOf<'volume'> | UnitOf<'count'>>;

/** An active (API), a cleaning agent or a nitrosamine: the residue left behind by `previous`. */
export interface ActiveSpec {
  id: string;
  /** PDE or ADE per day (EMA HBEL guideline; ISPE Risk-MaPP). */
  pde?: QuantityOf<'mass'>;
  /**
   * Where the PDE comes from when the active is linked to the plan's HBEL library (issue 32): the
   * entry, its version, and a site override with its justification and signer, in words. Only
   * shown in derivations; no number depends on it.
   */
  pdeLineage?: string;
  /** Minimum therapeutic daily dose (Fourman & Mullen). */
  therapeuticDose?: QuantityOf<'mass'>;
  /** Acute LD50 per kg body weight (APIC LD50 route). */
  ld50?: QuantityOf<'toxicity'>;
  /** Acceptable intake per day (ICH M7; nitrosamines). */
  acceptableIntake?: QuantityOf<'mass'>;
  /** An intermediate of an API process: under an Intermediate policy it takes `intermediateArl`. */
  isIntermediate?: boolean;
  /**
   * Mass of carbon per mass of active, in (0, 1], where the active states one: pinned with the
   * limits so that a total organic carbon result is converted by the fraction of its snapshot's
   * day (issue 32). No limit depends on it; present only when stated, so the input of a facility
   * that states none (and its snapshots' hashes) stays as it was.
   */
  carbonFraction?: number;
}

export interface ProductSpec {
  id: string;
  minBatchSize: AmountQuantity;
  maxDailyDose: AmountQuantity;
  /**
   * Mass of one dosage unit, for a batch counted in units (spec §3 tablet weight: mg or ml; a
   * volume counts at 1 g/ml like a batch in volume).
   */
  unitWeight?: QuantityOf<'mass'> | QuantityOf<'volume'>;
  actives: ActiveSpec[];
  /** With `useProductLimit`: a limit recorded on the product (as previous), in mass. */
  productLimit?: QuantityOf<'mass'>;
}

export interface EquipmentSpec {
  id: string;
  surfaceArea: QuantityOf<'area'>;
}

export interface SamplingSpec {
  swabArea?: QuantityOf<'area'>;
  rinseVolume?: QuantityOf<'volume'>;
  /** Volume a swab is extracted into: needed for a per-sample limit given as a concentration. */
  extractionVolume?: QuantityOf<'volume'>;
  /** The swab and rinse sampling types' own recovery, percent (spec §3 sampling types). */
  swabRecoveryPercentage?: number;
  rinseRecoveryPercentage?: number;
  /** Names of the sampling types these come from, so a derivation can name its source. */
  swabTypeName?: string;
  rinseTypeName?: string;
}

/** Everything the matrix needs: the contract's input after validation and defaults. */
export interface LimitsInput {
  policy: CleaningLimitPolicy;
  products: ProductSpec[];
  equipment: EquipmentSpec[];
  /** product id → equipment ids it is made on */
  trains: Record<string, string[]>;
  sampling: SamplingSpec;
  /**
   * The facility's approved MAC formulas (MACFormula): each one more MACO criterion, `formula`
   * in the criteria. Absent in the command-line contract, whose output they never change.
   */
  macFormulas?: MacFormulaSpec[];
}

/** Criterion keys in the order that breaks ties and that `useFirstAvailableCriteria` walks. */
export const CRITERIA = ['health', 'dose', 'ld50', 'arl'] as const;
export type Criterion = (typeof CRITERIA)[number];
