import { apiFromToc } from '../limits/formulas.ts';
import type { LimitsInput } from '../limits/model.ts';
import { formatNumber } from '../units/format-number.ts';

/**
 * What an analytical method measures when it is not the active itself (issue 32). A non-specific
 * method (total organic carbon, conductivity) reports a signal that must be converted to the
 * residue before it meets a limit set for the active. The conversion attributes all the signal to
 * the active (worst case, reference §2.5): it may never loosen a limit, so a conversion that
 * cannot be made leaves the result not judged, with the reason.
 */

export const RESIDUE_MEASURES = ['active', 'toc', 'conductivity'] as const;
export type TResidueMeasure = (typeof RESIDUE_MEASURES)[number];

/**
 * The ResidueMeasure right a change of what a method measures takes (issue 32): giving a method
 * that measures the active a residue measure (TOC, conductivity) adds one, taking it back to the
 * active deletes it, one measure for another modifies it. What is no measure asks Modify (the
 * body's validation answers it).
 */
export function residueMeasureAction(
  current: TResidueMeasure,
  wanted: unknown,
): 'Add' | 'Delete' | 'Modify' {
  const isMeasure = (RESIDUE_MEASURES as readonly unknown[]).includes(wanted);
  if (current === 'active' && isMeasure && wanted !== 'active') return 'Add';
  if (current !== 'active' && wanted === 'active') return 'Delete';
  return 'Modify';
}

export const RESIDUE_MEASURE_LABELS: Record<TResidueMeasure, string> = {
  active: 'The active itself',
  toc: 'Total organic carbon',
  conductivity: 'Conductivity',
};

/**
 * The conversion a method's results go through before they meet the active's limit, in words
 * for the method's screen (the judgement's derivation shows the numbers of each result).
 */
export const RESIDUE_MEASURE_CONVERSIONS: Record<TResidueMeasure, string> = {
  active: 'None: results are compared with the limit as measured.',
  toc: "A result is mass of carbon: it is divided by the carbon fraction of the active (the lowest among the actives of the study's products), all carbon attributed to the active. The LOQ is divided the same way before it is compared with a limit.",
  conductivity:
    "None stated: results are not judged against the active's limit, and the method cannot show one.",
};

export interface ResidueConversionInput {
  measure: TResidueMeasure;
  /** Mass of carbon per mass of active, in (0, 1]; null when the active states none. */
  carbonFraction: number | null;
}

export type ResidueConversion =
  | { ok: true; factor: number; line: (measured: string, asActive: string) => string | null }
  | { ok: false; why: string };

/** A carbon fraction is a mass fraction: above 0, at most 1. */
export function isCarbonFraction(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 1;
}

/**
 * How a measured quantity becomes mass of active: divide by `factor` (1 for the active itself,
 * the carbon fraction for TOC, reference §2.5: "To convert a TOC result back to API, divide by
 * the carbon fraction").
 */
export function residueConversion(input: ResidueConversionInput): ResidueConversion {
  if (input.measure === 'active') return { ok: true, factor: 1, line: () => null };
  if (input.measure === 'toc') {
    const cf = input.carbonFraction;
    if (!isCarbonFraction(cf))
      return {
        ok: false,
        why: "the method measures total organic carbon and the active's carbon fraction is not stated: the carbon cannot be converted to the active",
      };
    return {
      ok: true,
      factor: cf,
      line: (measured, asActive) =>
        `As active: ${measured} of carbon ÷ carbon fraction ${formatNumber(cf)} = ${asActive}`,
    };
  }
  return {
    ok: false,
    why: 'the method measures conductivity, which has no stated conversion to the active',
  };
}

/**
 * The carbon fractions a limits input pins, by active name; null when it pins none (a snapshot
 * taken before fractions were pinned, or when no active stated one): the reader then takes them
 * as they were when the snapshot was taken.
 */
export function pinnedCarbonFractions(input: LimitsInput): Map<string, number> | null {
  const pinned = new Map<string, number>();
  for (const product of input.products ?? [])
    for (const active of product.actives ?? [])
      if (isCarbonFraction(active.carbonFraction)) pinned.set(active.id, active.carbonFraction);
  return pinned.size > 0 ? pinned : null;
}

/** A TOC result (mass of carbon) as mass of active, all carbon attributed to the active. */
export function activeFromCarbon(carbon: number, carbonFraction: number): number {
  if (!isCarbonFraction(carbonFraction))
    throw new RangeError(`carbon fraction must be in (0, 1], got ${carbonFraction}`);
  return apiFromToc(carbon, 0, carbonFraction);
}

/**
 * The method's LOQ in residue terms (the fitness check): LOQ ÷ carbon fraction for TOC; null when
 * it cannot be converted (such a method cannot show any limit is met).
 */
export function loqAsResidue(loq: number, input: ResidueConversionInput): number | null {
  const conversion = residueConversion(input);
  return conversion.ok ? loq / conversion.factor : null;
}
