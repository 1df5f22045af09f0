import { formatQuantity } from '../units/format-number.ts';
import { toBase } from '../units/quantity.ts';
import type { Quantity } from '../units/quantity.ts';
import type { UnitKind } from '../units/units.ts';
import type { AgentCriterion, AgentNumbers, CleaningAgentSpec } from './cleaning-agent.ts';
import { amountKind, batchMassKg } from './compile.ts';
import { factorInput, from, fromPolicy, input, result, step } from './derivation.ts';
import type { Derivation, DerivationInput } from './derivation.ts';
import { noelFromLd50 } from './formulas.ts';
import type { ProductSpec } from './model.ts';
import type { CleaningLimitPolicy } from './policy.ts';
import { effectiveSafetyFactor } from './policy.ts';

const BASE = { mass: 'mg', volume: 'ml', count: 'units' } as const;

const CRITERION_WORDS: Record<AgentCriterion, string> = {
  health: 'the agent’s own HBEL',
  ld50: 'the LD50 route',
  arl: 'the policy’s general limit (ARL)',
  ceiling: 'the agent’s ppm ceiling',
};

/** Which criterion governs the MACO, in words, and what the agent's own ceiling did. */
export function agentMacoNote(
  agent: CleaningAgentSpec,
  governing: AgentCriterion | null,
  ceiling: number,
): string {
  const ppm = agent.ceiling ? formatQuantity(agent.ceiling.value, agent.ceiling.unit) : '';
  if (governing === 'ceiling') return `ppm ceiling of the agent (${ppm}) governs`;
  const governs = governing ? `governed by ${governing}` : 'no criterion available';
  if (!agent.ceiling) return governs;
  if (Number.isNaN(ceiling)) return `${governs}; the agent’s ppm ceiling needs a batch mass`;
  return `${governs}: ${CRITERION_WORDS[governing ?? 'arl']} is not above the agent’s ppm ceiling (${ppm}), which never loosens it`;
}

/** How each of an agent's numbers in one next product was reached (reference §3). */
export function cleaningAgentDerivations(
  agent: CleaningAgentSpec,
  next: ProductSpec,
  policy: CleaningLimitPolicy,
  n: AgentNumbers,
): Record<AgentCriterion | 'maco' | 'sal', Derivation> {
  const sf = effectiveSafetyFactor(policy);
  const bodyWeightKg = toBase(policy.bodyWeight, 'mass') / 1_000_000;
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
  /** A field of the agent's own record as an input, when it has a value. */
  const agentField = (
    symbol: string,
    name: string,
    given: Quantity<string> | undefined,
    kind: UnitKind,
    unit: string,
    field: string,
  ): DerivationInput[] =>
    given
      ? [
          input(
            symbol,
            `${name} of ${agent.id}`,
            given,
            toBase(given, kind),
            unit,
            from('cleaningAgent', agent.id, field),
          ),
        ]
      : [];
  const batchMass = step('batch mass', 'MBS in kg', batchMassKg(next), 'kg');
  return {
    health: {
      quantity: `MACO of ${agent.id} in ${next.id}, own HBEL`,
      formula: 'MACO = HBEL × MBS / MDD',
      reference: 'reference §3: the agent’s ADE preferred; EMA HBEL guideline',
      inputs: [...agentField('HBEL', 'HBEL', agent.hbel, 'mass', 'mg/day', 'PDE'), ...amounts],
      steps: [],
      result: result(n.health, 'mg'),
      ...(Number.isNaN(n.health)
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
        ...agentField('LD50', 'LD50', agent.ld50, 'toxicity', 'mg/kg', 'LD50'),
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
      result: result(n.ld50, 'mg'),
      ...(Number.isNaN(n.ld50)
        ? {
            note: policy.useLd50
              ? 'no LD50 for the agent'
              : 'the policy does not use the LD50 criterion',
          }
        : {}),
    },
    arl: {
      quantity: `MACO of ${agent.id} in ${next.id}, general limit`,
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
      steps: [batchMass],
      result: result(n.arl, 'mg'),
      ...(Number.isNaN(n.arl)
        ? { note: policy.useARL ? 'no batch mass' : 'the policy does not use the general limit' }
        : {}),
    },
    ceiling: {
      quantity: `MACO of ${agent.id} in ${next.id}, the agent’s ppm ceiling`,
      formula: 'MACO = ceiling [mg/kg] × batch mass [kg]',
      reference:
        'reference §1.5 (LeBlanc default limits): a ppm figure is a ceiling, applied only where lower',
      inputs: [
        ...agentField('C', 'ppm ceiling', agent.ceiling, 'concentration', 'mg/kg', 'ceiling (ppm)'),
        ...amounts,
      ],
      steps: agent.ceiling ? [batchMass] : [],
      result: result(n.ceiling, 'mg'),
      ...(Number.isNaN(n.ceiling)
        ? { note: agent.ceiling ? 'no batch mass' : 'no ppm ceiling for the agent' }
        : {}),
    },
    maco: {
      quantity: `MACO of ${agent.id} in ${next.id}`,
      formula: policy.useFirstAvailableCriteria
        ? 'min(first available of health, ld50, arl; ceiling)'
        : 'min(health, ld50, arl, ceiling)',
      reference: 'reference §3 and §1.5: the lowest criterion; a ppm ceiling never loosens it',
      inputs: [],
      steps: (
        [
          ['health', n.health],
          ['ld50', n.ld50],
          ['arl', n.arl],
          ['ceiling', n.ceiling],
        ] as const
      ).map(([key, v]) => step(key, `criterion ${key}`, v, 'mg')),
      result: result(n.maco, 'mg'),
      note: agentMacoNote(agent, n.governing, n.ceiling),
    },
    sal: {
      quantity: `cleaning-agent SAL of ${agent.id} on the train of ${next.id}`,
      formula: 'SAL = MACO / area of the next product’s train',
      reference: 'limit basis cleaningAgentSal: the agent is used on every item of the train',
      inputs: [
        input('MACO', 'MACO', { value: n.maco, unit: 'mg' }, n.maco, 'mg', 'MACO, derived above'),
        input(
          'A',
          `train area of ${next.id}`,
          { value: n.area, unit: 'sqcm' },
          n.area,
          'sqcm',
          `equipment of ${next.id}’s productions`,
        ),
      ],
      steps: [],
      result: result(n.sal, 'mg/sqcm'),
    },
  };
}
