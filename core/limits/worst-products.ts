import { rankingAttributeLabel } from '../labels/enum-labels.ts';
import { formatQuantity } from '../units/format-number.ts';
import { selectWorstCase } from './risk.ts';
import type { Candidate, SelectionCriterion } from './risk.ts';

/*
 * The worst-case product of a group of products (the products of one train, or those made on one
 * item of equipment), by the worst-case ranking's own selection criteria (ranking.ts), and why it
 * is the worst: the criterion that set it apart from the next worst, with both values. One study
 * on the worst case stands for the group (APIC cleaning validation guide §4, bracketing; EU GMP
 * Annex 15 §10.12: the worst case chosen and justified).
 */

/** The unit each ranking attribute is in (ranking.ts builds them so); none for a plain number. */
const ATTRIBUTE_UNITS: Readonly<Record<string, string>> = {
  score: 'points',
  solubility: 'points',
  cleanability: 'points',
  dose: 'points',
  toxicity: 'points',
  lowestMaco: 'mg',
  pdeMg: 'mg',
  therapeuticDoseMg: 'mg',
};

export interface WorstReason {
  /** The attribute that decided (a ranking attribute), null when the product stands alone. */
  attribute: string | null;
  value: number | null;
  unit: string | null;
  /** The next worst product of the group and its value of the same attribute. */
  runnerUp: { product: string; value: number | null } | null;
  /** The reason in words. */
  text: string;
}

export interface WorstOfGroup {
  product: string | null;
  /** The worst product's lowest MACO (mg), the limit its study is judged against; null if none. */
  lowestMaco: number | null;
  reason: WorstReason;
}

const valueOf = (c: Candidate, attribute: string) => {
  const v = c.attributes[attribute];
  return v === undefined || !Number.isFinite(v) ? null : v;
};

function shown(value: number | null, unit: string | null) {
  return value === null ? 'not recorded' : formatQuantity(value, unit ?? '');
}

/** Why `worst` is worse than `next`: the first criterion on which they differ. */
function reasonOf(
  worst: Candidate,
  next: Candidate | undefined,
  criteria: readonly SelectionCriterion[],
): WorstReason {
  if (!next) {
    return {
      attribute: null,
      value: null,
      unit: null,
      runnerUp: null,
      text: 'The only product of the group whose limits can be computed',
    };
  }
  const deciding =
    criteria.find((c) => valueOf(worst, c.attribute) !== valueOf(next, c.attribute)) ?? null;
  if (!deciding) {
    return {
      attribute: null,
      value: null,
      unit: null,
      runnerUp: { product: next.id, value: null },
      text: `Level with ${next.id} on every criterion: the first in the list is taken`,
    };
  }
  const unit = ATTRIBUTE_UNITS[deciding.attribute] ?? null;
  const value = valueOf(worst, deciding.attribute);
  const other = valueOf(next, deciding.attribute);
  const label = rankingAttributeLabel(deciding.attribute);
  return {
    attribute: deciding.attribute,
    value,
    unit,
    runnerUp: { product: next.id, value: other },
    text: `${deciding.worst === 'highest' ? 'Highest' : 'Lowest'} ${label}: ${shown(value, unit)} (next worst ${next.id}: ${shown(other, unit)})`,
  };
}

/** The worst-case product of each group and why, by the ranking's criteria in order. */
export function worstOfGroups(
  groups: Readonly<Record<string, readonly string[]>>,
  candidates: readonly Candidate[],
  criteria: readonly SelectionCriterion[],
): Record<string, WorstOfGroup> {
  const byId = new Map(candidates.map((c) => [c.id, c]));
  const out: Record<string, WorstOfGroup> = {};
  for (const [group, members] of Object.entries(groups)) {
    const pool = [...new Set(members)].flatMap((id) => byId.get(id) ?? []);
    const worst = selectWorstCase(pool, criteria);
    if (!worst) {
      out[group] = {
        product: null,
        lowestMaco: null,
        reason: {
          attribute: null,
          value: null,
          unit: null,
          runnerUp: null,
          text: 'No product of the group has limits that can be computed',
        },
      };
      continue;
    }
    const next = selectWorstCase(
      pool.filter((c) => c !== worst),
      criteria,
    );
    out[group] = {
      product: worst.id,
      lowestMaco: valueOf(worst, 'lowestMaco'),
      reason: reasonOf(worst, next, criteria),
    };
  }
  return out;
}
