import { toBase } from '../units/quantity.ts';
import type { QuantityOf } from '../units/quantity.ts';
import { ARL, DOSE, HEALTH } from './compile.ts';

/** What a limit is checked against: the analytical method, the visible-residue limit, history. */
export interface LimitChecks {
  /** The analytical method's LOQ for a swab sample (amount per swab). */
  swabLoq?: QuantityOf<'swabLimit'> | QuantityOf<'mass'>;
  /** The analytical method's LOQ for a rinse sample (concentration). */
  rinseLoq?: QuantityOf<'rinseConcentration'>;
  /** The validated visible-residue limit (VRL), per area. */
  visibleResidueLimit?: QuantityOf<'surfaceLimit'>;
  /**
   * How many times looser than the traditional limits (1/1000 dose, ARL) the health-based limit
   * may be before it is flagged (Health Canada GUI-0028 alert limits). Default 10.
   */
  looserThanTraditionalFactor?: number;
}

export interface LimitFlags {
  /** The swab limit is below the method's LOQ: a passing result cannot be shown. */
  swabBelowLoq: boolean;
  rinseBelowLoq: boolean;
  /**
   * The surface limit is above the VRL: residue would be visible before the limit is reached, so
   * visual inspection can support the limit (LeBlanc, PDA J 2002; reference §5, case D29).
   */
  aboveVisibleResidueLimit: boolean;
  /** The health-based MACO is far looser than the traditional limits (alert limit advised). */
  farLooserThanTraditional: boolean;
  /** health-based MACO ÷ the lowest traditional MACO, NaN when one of them is missing. */
  healthToTraditionalRatio: number;
}

/** The numbers a flag needs, in mg, mg/sqcm, mg/swab, mg/ml (NaN = not available). */
export interface FlaggedLimit {
  criteria: ArrayLike<number>;
  sal: number;
  swabLimit: number;
  rinseLimit: number;
}

export function limitFlags(limit: FlaggedLimit, checks: LimitChecks): LimitFlags {
  const swabLoq = checks.swabLoq
    ? toBase(
        checks.swabLoq.unit === 'mg/swab' || checks.swabLoq.unit === 'ug/swab'
          ? checks.swabLoq
          : { value: toBase(checks.swabLoq, 'mass'), unit: 'mg/swab' },
        'swabLimit',
      )
    : Number.NaN;
  const rinseLoq = checks.rinseLoq ? toBase(checks.rinseLoq, 'rinseConcentration') : Number.NaN;
  const vrl = checks.visibleResidueLimit
    ? toBase(checks.visibleResidueLimit, 'surfaceLimit')
    : Number.NaN;
  const health = limit.criteria[HEALTH] ?? Number.NaN;
  const dose = limit.criteria[DOSE] ?? Number.NaN;
  const arl = limit.criteria[ARL] ?? Number.NaN;
  const traditional = Math.min(
    Number.isNaN(dose) ? Number.POSITIVE_INFINITY : dose,
    Number.isNaN(arl) ? Number.POSITIVE_INFINITY : arl,
  );
  const ratio = Number.isFinite(traditional) ? health / traditional : Number.NaN;
  return {
    swabBelowLoq: limit.swabLimit < swabLoq,
    rinseBelowLoq: limit.rinseLimit < rinseLoq,
    aboveVisibleResidueLimit: limit.sal > vrl,
    farLooserThanTraditional: ratio > (checks.looserThanTraditionalFactor ?? 10),
    healthToTraditionalRatio: ratio,
  };
}

/** Visual inspection alone can stand only where the VRL is below the surface limit (D29). */
export function visualInspectionSufficient(
  sal: QuantityOf<'surfaceLimit'>,
  vrl: QuantityOf<'surfaceLimit'>,
): boolean {
  return toBase(vrl, 'surfaceLimit') < toBase(sal, 'surfaceLimit');
}
