import type { Quantity } from '../units/quantity.ts';

/**
 * Published HBELs that stand in where no compound-specific value exists. Kept as data with their
 * source so a limit built on one names it; regional values that disagree are both kept.
 */

/** ICH M7(R1) less-than-lifetime TTC for a mutagenic impurity, by duration of treatment. */
export const ICH_M7_LTL_TTC: readonly { duration: string; ai: Quantity<'ug'> }[] = [
  { duration: '<=1 month', ai: { value: 120, unit: 'ug' } },
  { duration: '>1-12 months', ai: { value: 20, unit: 'ug' } },
  { duration: '>1-10 years', ai: { value: 10, unit: 'ug' } },
  { duration: '>10 years-lifetime', ai: { value: 1.5, unit: 'ug' } },
];

/** Nitrosamine acceptable intakes (EMA Art. 5(3) Q&A; FDA), ng/day. */
export const NITROSAMINE_AI: Record<string, Quantity<'ng'>> = {
  NDMA: { value: 96, unit: 'ng' },
  NMBA: { value: 96, unit: 'ng' },
  NDEA: { value: 26.5, unit: 'ng' },
  NEIPA: { value: 26.5, unit: 'ng' },
  DIPNA: { value: 26.5, unit: 'ng' },
};

/**
 * CPCA potency categories (EMA July 2023; FDA RAIL August 2023). Category 1 differs by region:
 * 18 ng/day (EMA) against 26.5 ng/day (FDA); the platform makes the region a setting.
 */
export const CPCA_AI: Record<'EMA' | 'FDA', Record<1 | 2 | 3 | 4 | 5, Quantity<'ng'>>> = {
  EMA: {
    1: { value: 18, unit: 'ng' },
    2: { value: 100, unit: 'ng' },
    3: { value: 400, unit: 'ng' },
    4: { value: 1500, unit: 'ng' },
    5: { value: 1500, unit: 'ng' },
  },
  FDA: {
    1: { value: 26.5, unit: 'ng' },
    2: { value: 100, unit: 'ng' },
    3: { value: 400, unit: 'ng' },
    4: { value: 1500, unit: 'ng' },
    5: { value: 1500, unit: 'ng' },
  },
};

/** ICH Q3C Appendix 3 F1 (species to human). */
export const ICH_Q3C_F1: Record<string, number> = {
  rat: 5,
  mouse: 12,
  dog: 2,
  rabbit: 2.5,
  monkey: 3,
  other: 10,
};
