import { formatQuantity } from '../units/format-number.ts';

/*
 * A site may name another product than the computed one as the worst case of a train or an item
 * of equipment: the hardest to clean by its own experience, say, where the ranking put the most
 * toxic first. What it may not do is loosen the limit the group is validated against. The study
 * on the chosen product is judged against the strictest of the two limits: a product chosen
 * whose lowest MACO is less strict than the computed worst's (or not known) is refused unless the
 * site keeps the computed worst's limit for it (APIC cleaning validation guide 2021 §4: the worst
 * case for cleaning is validated against the lowest limit of the group; EU GMP Annex 15 §10.12:
 * the worst case is justified; ICH Q9: a decision that raises the risk to the patient is not one
 * a justification can make alone).
 */

export interface OverrideLimitInput {
  computed: { product: string; lowestMaco: number | null };
  chosen: { product: string; lowestMaco: number | null };
  /** Keep the computed worst's limit for the study of the chosen product. */
  keepComputedLimit: boolean;
}

export type OverrideLimitDecision =
  | {
      allowed: true;
      /** The limit the group is validated against, mg: the strictest known; null when none is. */
      limit: number | null;
      /** The product that limit is of. */
      limitProduct: string | null;
    }
  | { allowed: false; message: string };

const known = (v: number | null): v is number => v !== null && Number.isFinite(v);

/** The limit of the group under an override: the strictest of the two known limits. */
export function overrideLimit(
  computed: OverrideLimitInput['computed'],
  chosen: OverrideLimitInput['chosen'],
): { limit: number | null; limitProduct: string | null } {
  const sides = [chosen, computed].filter((s) => known(s.lowestMaco));
  if (sides.length === 0) return { limit: null, limitProduct: null };
  const strictest = sides.reduce((a, b) => (b.lowestMaco! < a.lowestMaco! ? b : a));
  return { limit: strictest.lowestMaco, limitProduct: strictest.product };
}

/** Whether the override may be signed, and the limit the group is then validated against. */
export function decideOverride(input: OverrideLimitInput): OverrideLimitDecision {
  const { computed, chosen, keepComputedLimit } = input;
  if (chosen.product === computed.product)
    return {
      allowed: false,
      message: `${chosen.product} is the computed worst case already: an override names another product`,
    };
  const looser =
    known(computed.lowestMaco) &&
    (!known(chosen.lowestMaco) || chosen.lowestMaco > computed.lowestMaco);
  if (looser && !keepComputedLimit) {
    const theirs = known(chosen.lowestMaco)
      ? `lowest MACO (${formatQuantity(chosen.lowestMaco, 'mg')}) is less strict than`
      : 'lowest MACO cannot be computed, so it cannot be shown to be as strict as';
    return {
      allowed: false,
      message: `${chosen.product}'s ${theirs} that of the computed worst case ${computed.product} (${formatQuantity(computed.lowestMaco, 'mg')}): choosing it would loosen the limit. Choose it only keeping ${computed.product}'s limit for the study`,
    };
  }
  return { allowed: true, ...overrideLimit(computed, chosen) };
}
