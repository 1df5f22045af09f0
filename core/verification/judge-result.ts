import type { TCensoring, TJudgement, TResultUnit } from '../schemas/verification.schemas.ts';
import { convertValue } from '../units/quantity.ts';
import { formatNumber, unitLabel } from '../units/format-number.ts';
import {
  RESIDUE_MEASURE_LABELS,
  residueConversion,
  type ResidueConversionInput,
} from './residue-measure.ts';

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
  /** The method's LOQ in `unit`, or null when the method states none. */
  loq: number | null;
  /** The method's LOD in `unit`, or null when the method states none. */
  lod?: number | null;
  /**
   * Set when the method states an LOQ (or LOD) that cannot be expressed in `unit` (a swab method's
   * concentration without an extraction volume, an LOQ per swab for a rinse): why, for the
   * derivation. Such a method cannot show that any limit is met.
   */
  detectionUnconvertible?: string | null;
  /**
   * What the method measures (residue-measure.ts); the active itself when absent. A TOC value,
   * its LOQ and LOD are mass of carbon: they are converted to the active before the limit.
   */
  residue?: ResidueConversionInput;
}

/** Numbers in derivation lines: four significant digits, as the limits screens show them. */
export function shown(value: number): string {
  return formatNumber(value);
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

/**
 * What the result is reported as once the method's own limits are applied: a `< LOQ` (`< LOD`)
 * bound is never below the method's LOQ (LOD), and a value measured below the LOQ is not a
 * quantified value (ICH Q2(R2): below the LOQ a method is not shown to be accurate or precise), so
 * it is reported as `< LOQ` at the LOQ.
 */
function reportedAs(
  input: JudgeResultInput,
  u: (value: number) => string,
): { censoring: TCensoring; value: number; why: string | null } {
  const { censoring, rawValue, loq, lod } = input;
  const bound = censoring === '< LOQ' ? loq : censoring === '< LOD' ? (lod ?? null) : null;
  if (bound !== null && bound > rawValue)
    return {
      censoring,
      value: bound,
      why: `the method's ${censoring.slice(2)}, above the bound of ${u(rawValue)} typed`,
    };
  if (censoring === '=' && loq !== null && rawValue < loq)
    return { censoring: '< LOQ', value: loq, why: `${u(rawValue)} is below the method's LOQ` };
  return { censoring, value: rawValue, why: null };
}

export function judgeResult(input: JudgeResultInput): TJudgement {
  const { unit, recovery, recoverySource, limit, loq } = input;
  if (!(recovery > 0 && recovery <= 1)) {
    throw new RangeError(`recovery must be a fraction in (0, 1], got ${recovery}`);
  }
  const u = (value: number) => `${shown(value)} ${unitLabel(unit)}`;
  const reported = reportedAs(input, u);
  const { censoring, value: rawValue } = reported;
  const below = CENSORED_BELOW[censoring];
  const measure = input.residue?.measure ?? 'active';
  const derivation = [
    `Reported: ${input.censoring === '=' ? '' : `${input.censoring} `}${u(input.rawValue)}`,
    ...(measure === 'active' ? [] : [`Measured as: ${RESIDUE_MEASURE_LABELS[measure]}`]),
    ...(reported.why ? [`Reported as ${censoring} ${u(rawValue)}: ${reported.why}`] : []),
  ];
  const conversion = input.residue
    ? residueConversion(input.residue)
    : residueConversion({ measure: 'active', carbonFraction: null });
  if (!conversion.ok) {
    // Never loosen a limit: a signal that cannot be converted to the active is not judged.
    derivation.push(`Not judged: ${conversion.why}`);
    return {
      correctedValue: null,
      recovery,
      recoverySource,
      limit,
      percentOfLimit: null,
      censoredBelow: below !== undefined,
      passed: null,
      methodNotFit: false,
      ...(reported.why ? { reportedCensoring: censoring, reportedValue: rawValue } : {}),
      derivation,
    };
  }
  const asActive = rawValue / conversion.factor;
  const corrected = asActive / recovery;
  const conversionLine = conversion.line(u(rawValue), u(asActive));
  derivation.push(
    ...(conversionLine ? [conversionLine] : []),
    `Recovery: ${shown(recovery * 100)} % (${recoverySource})`,
    `Recovery-corrected: ${u(asActive)} ÷ ${shown(recovery)} = ${u(corrected)}`,
  );
  const base = {
    correctedValue: corrected,
    recovery,
    recoverySource,
    censoredBelow: below !== undefined,
    ...(reported.why ? { reportedCensoring: censoring, reportedValue: rawValue } : {}),
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
  const unfit: string[] = [];
  if (below) {
    // A censored result is never counted as 0: only its bound is known.
    derivation.push(`The value lies ${below}: below ${u(corrected)}, never counted as 0`);
    if (!passed) unfit.push('its reported bound is above the limit');
    derivation.push(
      passed
        ? `The bound ${u(corrected)} is at or below the limit ${u(limit)}`
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
        ? `${u(corrected)} is at or below the limit ${u(limit)}`
        : `Failed: ${u(corrected)} is above the limit ${u(limit)}`,
    );
  }
  // The LOQ in residue terms (LOQ ÷ carbon fraction for TOC), then corrected for recovery.
  const loqActive = loq === null ? null : loq / conversion.factor;
  if (loq !== null && loqActive !== null && loqActive / recovery > limit) {
    const asResidue = conversion.factor === 1 ? '' : ` ÷ ${shown(conversion.factor)}`;
    unfit.push(
      `LOQ ${u(loq)}${asResidue} ÷ ${shown(recovery)} = ${u(loqActive / recovery)} is above the limit ${u(limit)}`,
    );
  }
  if (input.detectionUnconvertible) unfit.push(input.detectionUnconvertible);
  // A method that cannot see the limit cannot show it is met, whatever was typed: never a pass.
  const methodNotFit = unfit.length > 0;
  if (methodNotFit) {
    passed = false;
    derivation.push(...unfit.map((why) => `Method not fit: ${why}`));
    derivation.push('Not passed: the method cannot show that the limit is met');
  } else if (passed) {
    derivation.push('Passed');
  }
  return { ...base, limit, percentOfLimit, passed, methodNotFit, derivation };
}
