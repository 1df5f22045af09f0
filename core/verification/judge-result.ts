import type { TCensoring, TJudgement, TResultUnit } from '../schemas/verification.schemas.ts';
import { convertValue } from '../units/quantity.ts';
import { roundToSignificant } from '../limits/formulas.ts';

/**
 * The judgement of one sample result against its limit (issue 12, core/verification/README.md).
 * Recovery divides the result, never the limit: the limit stays the one of the limits snapshot.
 */

export interface JudgeResultInput {
  censoring: TCensoring;
  /** The value, or the bound it is censored at, in `unit`. */
  rawValue: number;
  unit: TResultUnit;
  /** Recovery fraction, 0 < r ≤ 1. */
  recovery: number;
  recoverySource: string;
  /** The limit in `unit`; null when none applies. */
  limit: number | null;
  /** The method's LOQ in `unit`, or null. */
  loq: number | null;
}

/** Numbers in derivation lines: four significant digits, as the limits screens show them. */
export function shown(value: number): string {
  return String(roundToSignificant(value, 4));
}

// ppm read as ug/ml: in aqueous samples 1 ppm = 1 mg/L = 1 ug/ml (reference §0, the same reading
// as sampleConcentrationMgPerMl). Kept as ug/ml so ppm ↔ ug/ml stays exact.
function unitOf(unit: TResultUnit) {
  return unit === 'ppm' ? 'ug/ml' : unit;
}

/**
 * Converts among mg/swab ↔ ug/swab and mg/ml ↔ ug/ml ↔ ppm. A swab amount and a rinse
 * concentration are different kinds: convertValue refuses the mix with a UnitKindError.
 */
export function toResultUnit(value: number, from: TResultUnit, to: TResultUnit): number {
  return convertValue(value, unitOf(from), unitOf(to));
}

const CENSORED_BELOW: Partial<Record<TCensoring, string>> = {
  '< LOD': 'below the LOD',
  '< LOQ': 'below the LOQ',
};

export function judgeResult(input: JudgeResultInput): TJudgement {
  const { censoring, rawValue, unit, recovery, recoverySource, limit, loq } = input;
  if (!(recovery > 0 && recovery <= 1)) {
    throw new RangeError(`recovery must be a fraction in (0, 1], got ${recovery}`);
  }
  const u = (value: number) => `${shown(value)} ${unit}`;
  const corrected = rawValue / recovery;
  const below = CENSORED_BELOW[censoring];
  const derivation = [
    `Reported: ${censoring === '=' ? '' : `${censoring} `}${u(rawValue)}`,
    `Recovery: ${shown(recovery * 100)} % (${recoverySource})`,
    `Recovery-corrected: ${u(rawValue)} ÷ ${shown(recovery)} = ${u(corrected)}`,
  ];
  const base = {
    correctedValue: corrected,
    recovery,
    recoverySource,
    censoredBelow: below !== undefined,
  };
  if (limit === null || !(limit > 0)) {
    derivation.push(
      limit === null
        ? 'No limit applies: not judged'
        : `Limit ${u(limit)} is not usable: not judged`,
    );
    return { ...base, limit, percentOfLimit: null, passed: null, methodNotFit: false, derivation };
  }
  const percentOfLimit = (corrected / limit) * 100;
  derivation.push(
    `Limit: ${u(limit)}`,
    `Percent of limit: ${u(corrected)} ÷ ${u(limit)} × 100 = ${shown(percentOfLimit)} %`,
  );
  let passed = corrected <= limit;
  let methodNotFit = false;
  if (below) {
    // A censored result is never counted as 0: only its bound is known.
    derivation.push(`The value lies ${below}: below ${u(corrected)}, never counted as 0`);
    if (!passed) methodNotFit = true;
    derivation.push(
      passed
        ? `Passed: the bound ${u(corrected)} is at or below the limit ${u(limit)}`
        : `Failed: the bound ${u(corrected)} is above the limit ${u(limit)}; the method cannot show the value is within the limit`,
    );
  } else if (censoring === '> upper limit') {
    passed = false;
    derivation.push(
      `Failed: the value lies above ${u(corrected)}, unknown how far (a retest with dilution resolves it)`,
    );
  } else {
    derivation.push(
      passed
        ? `Passed: ${u(corrected)} is at or below the limit ${u(limit)}`
        : `Failed: ${u(corrected)} is above the limit ${u(limit)}`,
    );
  }
  if (loq !== null) {
    const loqCorrected = loq / recovery;
    if (loqCorrected > limit) {
      methodNotFit = true;
      derivation.push(
        `Method not fit: LOQ ${u(loq)} ÷ ${shown(recovery)} = ${u(loqCorrected)} is above the limit ${u(limit)}`,
      );
    }
  }
  if (methodNotFit && !derivation.some((line) => line.startsWith('Method not fit'))) {
    derivation.push('Method not fit: its reported bound is above the limit');
  }
  return { ...base, limit, percentOfLimit, passed, methodNotFit, derivation };
}
