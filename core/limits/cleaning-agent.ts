import { toBase } from '../units/quantity.ts';
import type { QuantityOf } from '../units/quantity.ts';
import { batchMassKg, batchToDoseRatio, trainOf } from './compile.ts';
import { macoArl, macoHealth, macoLd50, noelFromLd50, surfaceLimit } from './formulas.ts';
import { amountKind } from './compile.ts';
import { factorInput, from, fromPolicy, input, result, step } from './derivation.ts';
import type { Derivation, DerivationInput } from './derivation.ts';
import type { EquipmentSpec, ProductSpec } from './model.ts';
import type { CleaningLimitPolicy } from './policy.ts';
import { effectiveSafetyFactor } from './policy.ts';

/**
 * Cleaning-agent (detergent) limits, reference §3: preferably the agent's own HBEL (ADE), else
 * the LD50 route with the route-based safety factor, always compared with the ppm ceiling and
 * the lowest taken. The agent is assumed on every item of the next product's train, so its
 * surface limit (`cleaningAgentSal`) spreads the MACO over that whole train.
 */
export interface CleaningAgentSpec {
  id: string;
  /** The agent's own HBEL (ADE) per day, from the supplier or a toxicologist. */
  hbel?: QuantityOf<'mass'>;
  /** LD50 of the agent or of its most toxic component. */
  ld50?: QuantityOf<'toxicity'>;
}

export interface CleaningAgentLimit {
  agent: string;
  next: string;
  /** mg, NaN = null */
  health: number;
  ld50: number;
  arl: number;
  maco: number;
  governing: 'health' | 'ld50' | 'arl' | null;
  /** sqcm */
  area: number;
  /** mg/sqcm */
  sal: number;
  /** How each number was reached. */
  derivations: Record<'health' | 'ld50' | 'arl' | 'maco' | 'sal', Derivation>;
}

const BASE = { mass: 'mg', volume: 'ml', count: 'units' } as const;

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
    const candidates = [
      ['health', health],
      ['ld50', ld50],
      ['arl', arl],
    ] as const;
    let governing: CleaningAgentLimit['governing'] = null;
    let maco = Number.NaN;
    for (const [key, value] of candidates) {
      if (Number.isNaN(value)) continue;
      if (governing === null || value < maco) {
        governing = key;
        maco = value;
        if (policy.useFirstAvailableCriteria) break;
      }
    }
    const ids = new Set(trainOf(trains, next.id));
    let area = 0;
    for (const id of ids) area += areaById.get(id) ?? 0;
    const sal = area > 0 ? surfaceLimit(maco, area) : Number.NaN;
    const kind = amountKind(next.minBatchSize);
    const amounts: DerivationInput[] = [
      input(
        'MBS',
        `minimum batch size of ${next.id}`,
        next.minBatchSize,
        toBase(next.minBatchSize, kind),
        BASE[kind],
        from('product', next.id, 'minimum batch size'),
      ),
      input(
        'MDD',
        `maximum daily dose of ${next.id}`,
        next.maxDailyDose,
        toBase(next.maxDailyDose, kind),
        `${BASE[kind]}/day`,
        from('product', next.id, 'maximum daily dose'),
      ),
    ];
    const derivations: CleaningAgentLimit['derivations'] = {
      health: {
        quantity: `MACO of ${agent.id} in ${next.id}, own HBEL`,
        formula: 'MACO = HBEL × MBS / MDD',
        reference: 'reference §3: the agent’s ADE preferred; EMA HBEL guideline',
        inputs: agent.hbel
          ? [
              input(
                'HBEL',
                `HBEL of ${agent.id}`,
                agent.hbel,
                toBase(agent.hbel, 'mass'),
                'mg/day',
                from('cleaningAgent', agent.id, 'PDE'),
              ),
              ...amounts,
            ]
          : amounts,
        steps: [],
        result: result(health, 'mg'),
        ...(Number.isNaN(health)
          ? {
              note: policy.useToxicity
                ? 'no HBEL for the agent'
                : 'the policy does not use the health-based criterion',
            }
          : {}),
      },
      ld50: {
        quantity: `MACO of ${agent.id} in ${next.id}, LD50 route`,
        formula: 'NOEL = LD50 × BW / EF;  MACO = NOEL × MBS / (SF × MDD)',
        reference: 'APIC (LD50 route) with the route-based safety factor of the next product',
        inputs: [
          ...(agent.ld50
            ? [
                input(
                  'LD50',
                  `LD50 of ${agent.id}`,
                  agent.ld50,
                  toBase(agent.ld50, 'toxicity'),
                  'mg/kg',
                  from('cleaningAgent', agent.id, 'LD50'),
                ),
              ]
            : []),
          input(
            'BW',
            'body weight',
            policy.bodyWeight,
            bodyWeightKg,
            'kg',
            fromPolicy(policy.residueType, 'body weight'),
          ),
          factorInput(
            'EF',
            'empirical factor',
            policy.ld50EmpiricalFactor,
            fromPolicy(policy.residueType, 'LD50 empirical factor'),
          ),
          factorInput('SF', 'safety factor', sf, fromPolicy(policy.residueType, 'safety factor')),
          ...amounts,
        ],
        steps: agent.ld50
          ? [
              step(
                'NOEL',
                'LD50 × BW / EF',
                noelFromLd50(
                  toBase(agent.ld50, 'toxicity'),
                  bodyWeightKg,
                  policy.ld50EmpiricalFactor,
                ),
                'mg/day',
              ),
            ]
          : [],
        result: result(ld50, 'mg'),
        ...(Number.isNaN(ld50)
          ? {
              note: policy.useLd50
                ? 'no LD50 for the agent'
                : 'the policy does not use the LD50 criterion',
            }
          : {}),
      },
      arl: {
        quantity: `MACO of ${agent.id} in ${next.id}, ppm ceiling`,
        formula: 'MACO = ARL [mg/kg] × batch mass [kg]',
        reference: 'LeBlanc default limits; ECA: compare with 10 ppm and take the lower',
        inputs: [
          input(
            'ARL',
            'general limit',
            policy.arl,
            toBase(policy.arl, 'concentration'),
            'mg/kg',
            fromPolicy(policy.residueType, 'general limit (ARL)'),
          ),
          ...amounts,
        ],
        steps: [step('batch mass', 'MBS in kg', batchMassKg(next), 'kg')],
        result: result(arl, 'mg'),
        ...(Number.isNaN(arl)
          ? { note: policy.useARL ? 'no batch mass' : 'the policy does not use the general limit' }
          : {}),
      },
      maco: {
        quantity: `MACO of ${agent.id} in ${next.id}`,
        formula: policy.useFirstAvailableCriteria
          ? 'first available of health, ld50, arl'
          : 'min(health, ld50, arl)',
        reference: 'reference §3',
        inputs: [],
        steps: candidates.map(([key, v]) => step(key, `criterion ${key}`, v, 'mg')),
        result: result(maco, 'mg'),
        note: governing ? `governed by ${governing}` : 'no criterion available',
      },
      sal: {
        quantity: `cleaning-agent SAL of ${agent.id} on the train of ${next.id}`,
        formula: 'SAL = MACO / area of the next product’s train',
        reference: 'limit basis cleaningAgentSal: the agent is used on every item of the train',
        inputs: [
          input('MACO', 'MACO', { value: maco, unit: 'mg' }, maco, 'mg', 'MACO, derived above'),
          input(
            'A',
            `train area of ${next.id}`,
            { value: area, unit: 'sqcm' },
            area,
            'sqcm',
            `equipment of ${next.id}’s productions`,
          ),
        ],
        steps: [],
        result: result(sal, 'mg/sqcm'),
      },
    };
    return {
      agent: agent.id,
      next: next.id,
      health,
      ld50,
      arl,
      maco,
      governing,
      area,
      sal,
      derivations,
    };
  });
}
