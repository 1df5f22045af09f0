import { toBase } from '../units/quantity.ts';
import type { QuantityOf } from '../units/quantity.ts';
import { cleaningAgentDerivations } from './cleaning-agent-derivations.ts';
import { batchMassKg, batchToDoseRatio, isLower, trainOf } from './compile.ts';
import { macoArl, macoHealth, macoLd50, noelFromLd50, surfaceLimit } from './formulas.ts';
import type { Derivation } from './derivation.ts';
import type { EquipmentSpec, ProductSpec } from './model.ts';
import type { CleaningLimitPolicy } from './policy.ts';
import { effectiveSafetyFactor } from './policy.ts';

/**
 * Cleaning-agent (detergent) limits, reference §3: preferably the agent's own HBEL (ADE), else
 * the LD50 route with the route-based safety factor, compared with the policy's ppm default (the
 * general limit) and the lowest taken; then the agent's own ppm ceiling, when it has one, as a
 * further ceiling. The agent is assumed on every item of the next product's train, so its
 * surface limit (`cleaningAgentSal`) spreads the MACO over that whole train.
 */
export interface CleaningAgentSpec {
  id: string;
  /** The agent's own HBEL (ADE) per day, from the supplier or a toxicologist. */
  hbel?: QuantityOf<'mass'>;
  /** LD50 of the agent or of its most toxic component. */
  ld50?: QuantityOf<'toxicity'>;
  /** The agent's own ceiling in the next product ("Ceiling (ppm)" of the cleaning agent). */
  ceiling?: QuantityOf<'concentration'>;
}

export type AgentCriterion = 'health' | 'ld50' | 'arl' | 'ceiling';

/** The numbers of one agent in one next product, mg (NaN = null) unless said otherwise. */
export interface AgentNumbers {
  health: number;
  ld50: number;
  arl: number;
  /** The agent's own ppm ceiling × the next product's batch mass; NaN when it has none. */
  ceiling: number;
  maco: number;
  governing: AgentCriterion | null;
  /** sqcm */
  area: number;
  /** mg/sqcm */
  sal: number;
}

export interface CleaningAgentLimit extends AgentNumbers {
  agent: string;
  next: string;
  /** How each number was reached. */
  derivations: Record<AgentCriterion | 'maco' | 'sal', Derivation>;
}

/**
 * The governing MACO. The policy's criteria first, as for a product (the lowest, or the first
 * available under useFirstAvailableCriteria); the agent's own ppm ceiling then applies only where
 * it is lower. It never replaces the policy's general limit: reference §1.5 (LeBlanc, "default
 * limits") makes a ppm default a ceiling that is only ever compared with the calculated limit,
 * and §3 says to compare the detergent's limit with 10 ppm and take the lower; nothing there lets
 * an agent's own figure stand in for the policy's, so a ceiling above the policy's default
 * changes nothing and one below it tightens the limit. A tie keeps the policy's criterion.
 */
export function governingAgentMaco(
  criteria: readonly (readonly [AgentCriterion, number])[],
  ceiling: number,
  firstAvailable: boolean,
): { maco: number; governing: AgentCriterion | null } {
  let governing: AgentCriterion | null = null;
  let maco = Number.NaN;
  for (const [key, value] of criteria) {
    if (Number.isNaN(value)) continue;
    if (governing === null || value < maco) {
      governing = key;
      maco = value;
      if (firstAvailable) break;
    }
  }
  if (isLower(ceiling, maco)) return { maco: ceiling, governing: 'ceiling' };
  return { maco, governing };
}

export function cleaningAgentLimits(
  agent: CleaningAgentSpec,
  products: readonly ProductSpec[],
  equipment: readonly EquipmentSpec[],
  trains: Record<string, string[]>,
  policy: CleaningLimitPolicy,
): CleaningAgentLimit[] {
  const sf = effectiveSafetyFactor(policy);
  const areaById = new Map(equipment.map((e) => [e.id, toBase(e.surfaceArea, 'area')]));
  const bodyWeightKg = toBase(policy.bodyWeight, 'mass') / 1_000_000;
  const ceilingPpm = agent.ceiling ? toBase(agent.ceiling, 'concentration') : Number.NaN;
  return products.map((next) => {
    const ratio = batchToDoseRatio(next);
    const health =
      policy.useToxicity && agent.hbel ? macoHealth(toBase(agent.hbel, 'mass'), ratio) : Number.NaN;
    const ld50 =
      policy.useLd50 && agent.ld50
        ? macoLd50(
            noelFromLd50(toBase(agent.ld50, 'toxicity'), bodyWeightKg, policy.ld50EmpiricalFactor),
            sf,
            ratio,
          )
        : Number.NaN;
    const arl = policy.useARL
      ? macoArl(toBase(policy.arl, 'concentration'), batchMassKg(next))
      : Number.NaN;
    // Whatever the policy's switches, the agent's own ceiling is a limit on its residue.
    const ceiling = macoArl(ceilingPpm, batchMassKg(next));
    const { maco, governing } = governingAgentMaco(
      [
        ['health', health],
        ['ld50', ld50],
        ['arl', arl],
      ],
      ceiling,
      policy.useFirstAvailableCriteria,
    );
    const ids = new Set(trainOf(trains, next.id));
    let area = 0;
    for (const id of ids) area += areaById.get(id) ?? 0;
    const sal = area > 0 ? surfaceLimit(maco, area) : Number.NaN;
    const numbers: AgentNumbers = { health, ld50, arl, ceiling, maco, governing, area, sal };
    return {
      agent: agent.id,
      next: next.id,
      ...numbers,
      derivations: cleaningAgentDerivations(agent, next, policy, numbers),
    };
  });
}
