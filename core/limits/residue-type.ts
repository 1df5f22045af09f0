import type { QuantityOf } from '../units/quantity.ts';
import type { ActiveSpec } from './model.ts';
import type { CleaningLimitPolicy, ResidueType } from './policy.ts';

/**
 * The one rule, used by the matrix, its exports, the reports and every derivation, that says what
 * kind of residue an active is. An active recorded with only an acceptable intake (no PDE, no
 * therapeutic dose, no LD50) is a nitrosamine or other mutagenic impurity (ICH M7): its limit is
 * the AI-based one under every policy, exactly as under the Nitrosamine policy. Otherwise the
 * policy's own residue type applies.
 */
export function activeResidueType(active: ActiveSpec, policy: CleaningLimitPolicy): ResidueType {
  if (policy.residueType === 'Nitrosamine') return 'Nitrosamine';
  const onlyIntake =
    active.acceptableIntake !== undefined &&
    active.pde === undefined &&
    active.therapeuticDose === undefined &&
    active.ld50 === undefined;
  return onlyIntake ? 'Nitrosamine' : policy.residueType;
}

export interface Hbel {
  quantity: QuantityOf<'mass'>;
  field: 'pde' | 'acceptableIntake';
  /** Words for a derivation: what the value is. */
  label: string;
}

/**
 * The health-based exposure limit of an active: the PDE/ADE (EMA HBEL guideline), or for a
 * nitrosamine residue the ICH M7 acceptable intake. Undefined when the criterion does not apply:
 * the policy's `useToxicity` is off (for a nitrosamine under another policy the AI is its only
 * limit and always applies, so the 10 ppm general limit never stands in for it), or no value.
 */
export function hbelOf(active: ActiveSpec, policy: CleaningLimitPolicy): Hbel | undefined {
  const nitrosamine = activeResidueType(active, policy) === 'Nitrosamine';
  const switchedOn = policy.useToxicity || (nitrosamine && policy.residueType !== 'Nitrosamine');
  if (!switchedOn) return undefined;
  if (nitrosamine) {
    return active.acceptableIntake
      ? { quantity: active.acceptableIntake, field: 'acceptableIntake', label: 'acceptable intake' }
      : undefined;
  }
  return active.pde ? { quantity: active.pde, field: 'pde', label: 'PDE' } : undefined;
}
