import type { CriterionKey } from '#core/limits/compile.ts';
import type { ContractPair, ContractQuantity } from '#core/limits/contract-output.ts';

/** What each criterion of the limits contract is (contracts/limits.md, "Rules"). */
export const CRITERION_LABELS: Record<CriterionKey, string> = {
  health: 'Health-based (PDE/ADE)',
  dose: 'Dose-based (minimum therapeutic dose)',
  ld50: 'LD50-based (NOEL)',
  arl: 'General limit (ARL)',
  product: 'Product limit',
  formula: 'Facility MAC formula',
};

export const CRITERION_FORMULAS: Record<CriterionKey, string> = {
  health: 'PDE × MBS / LDD',
  dose: 'TD × MBS / (SF × LDD)',
  ld50: 'NOEL × MBS / (SF × LDD)',
  arl: 'ARL (ppm) × batch mass (kg)',
  product: 'company limit',
  formula: 'lowest approved MAC formula',
};

export function criterionLabel(key: string): string {
  return CRITERION_LABELS[key as CriterionKey] ?? key;
}

/**
 * The label of a pair's area, from the engine's own words for it: "Shared surface area", or
 * "Area of the previous product’s train" when the policy spreads the limit over that train.
 */
export function areaLabel(area: { quantity: string } | undefined): string {
  const q = area?.quantity ?? 'area';
  return q.charAt(0).toUpperCase() + q.slice(1);
}

export interface CriterionRow {
  key: string;
  label: string;
  formula: string;
  value: ContractQuantity<string> | null;
  isGoverning: boolean;
}

export interface PairExplanation {
  criteria: CriterionRow[];
  /** Why the governing criterion governs, read from the numbers. */
  rule: 'lowest' | 'first-available' | 'none';
  ruleText: string;
  /** MACO / area, recomputed from the document's own numbers, beside the reported SAL. */
  salFromMaco: number | null;
}

/**
 * The explanation of a pair, from the document's numbers only: each criterion, the one that
 * governs and why (the lowest, or the first available when the policy says so), and SAL =
 * MACO / shared area (or the policy's residue limit where that is lower: salCapped).
 */
export function explainPair(pair: ContractPair): PairExplanation {
  const entries = Object.entries(pair.criteria);
  const criteria = entries.map(([key, value]) => ({
    key,
    label: criterionLabel(key),
    formula: CRITERION_FORMULAS[key as CriterionKey] ?? '',
    value,
    isGoverning: key === pair.governing,
  }));
  const available = entries.filter(
    (entry): entry is [string, ContractQuantity<'mg'>] => entry[1] !== null,
  );
  const salFromMaco = pair.maco && pair.area.value > 0 ? pair.maco.value / pair.area.value : null;
  if (!pair.governing || !pair.maco || available.length === 0) {
    return {
      criteria,
      rule: 'none',
      ruleText:
        'No criterion could be computed for this pair: the previous product has no active with the data an enabled criterion needs (PDE, therapeutic dose or LD50), or no batch mass for the general limit.',
      salFromMaco,
    };
  }
  const lowest = Math.min(...available.map(([, q]) => q.value));
  const governingValue = pair.criteria[pair.governing]?.value;
  const label = criterionLabel(pair.governing);
  const active = pair.governingActive ? ` (active ${pair.governingActive})` : '';
  if (governingValue === lowest) {
    const others = available.length - 1;
    return {
      criteria,
      rule: 'lowest',
      ruleText:
        others === 0
          ? `${label}${active} governs: it is the only criterion available for this pair.`
          : `${label}${active} governs: it is the lowest of the ${available.length} available criteria, so the MACO is its value.`,
      salFromMaco,
    };
  }
  return {
    criteria,
    rule: 'first-available',
    ruleText: `${label}${active} governs although a later criterion is lower: the policy uses the first available criterion, in the order health, dose, LD50, general limit.`,
    salFromMaco,
  };
}
