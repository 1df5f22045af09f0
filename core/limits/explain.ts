import { toBase } from '../units/quantity.ts';
import {
  ARL,
  CRITERION_COUNT,
  CRITERION_KEYS,
  DOSE,
  FORMULA,
  HEALTH,
  LD50,
  amountKind,
  compileLimits,
  isLower,
  unitMassMg,
} from './compile.ts';
import type { CompiledLimits, CriterionKey } from './compile.ts';
import { factorInput, from, fromPolicy, input, result, step } from './derivation.ts';
import { limitFlags } from './flags.ts';
import type { LimitChecks, LimitFlags } from './flags.ts';
import type { Derivation, DerivationInput } from './derivation.ts';
import { SAMPLE_RULE_NAMES, evaluatePairAt, newPairView } from './matrix.ts';
import { derived, macoInput, sampleDerivations } from './explain-samples.ts';
import { formulaDerivation, formulaTitle } from './explain-formulas.ts';
import { lowestOutcome, macFormulaOutcomes } from './mac-formula.ts';
import { activeResidueType, hbelOf } from './residue-type.ts';
import type { PairView, SampleRuleName } from './matrix.ts';
import type { LimitsInput, ProductSpec } from './model.ts';
import { effectiveSafetyFactor } from './policy.ts';
import type { CleaningLimitPolicy } from './policy.ts';

/** One pair with every number explained (the client's "how was this number reached"). */
export interface PairExplanation {
  previous: string;
  next: string;
  sharedEquipment: string[];
  criteria: Record<CriterionKey, Derivation>;
  governing: CriterionKey | null;
  governingActive: string | null;
  maco: Derivation;
  area: Derivation;
  sal: Derivation;
  /** LeBlanc L1: the governing MACO as a concentration in the next batch (ppm). */
  limitInNextProduct: Derivation;
  swabLimit?: Derivation;
  rinseLimit?: Derivation;
  /**
   * Which rule set the swab and rinse limit (present with them): the calculation, the policy's
   * per-sample cap, or its fixed sample limit, a ceiling that governs only where lower.
   */
  swabLimitBasis?: SampleRuleName;
  rinseLimitBasis?: SampleRuleName;
  /** The raw numbers, identical to the matrix's (mg, sqcm, mg/sqcm, mg/swab, mg/ml; NaN = null). */
  numbers: PairNumbers;
  /**
   * Each active of the previous product on its own (combination products): what its limit would
   * be if it were the only residue. The policy's `ignoreCombo` asks reports to show these.
   */
  perActive: ActiveLimit[];
  /** Present when checks (method LOQ, VRL, alert factor) were given. */
  flags?: LimitFlags;
}

/** A plain copy of the matrix's numbers for one pair (safe to keep and to serialise). */
export interface PairNumbers {
  criteria: number[];
  governing: number;
  governingActive: number;
  maco: number;
  area: number;
  sal: number;
  salCapped: boolean;
  swabLimit: number;
  rinseLimit: number;
}

export interface ActiveLimit {
  active: string;
  /** mg per criterion, NaN = null */
  health: number;
  dose: number;
  ld50: number;
  arl: number;
  /** The lowest of the facility's approved MAC formulas for this active alone; NaN without. */
  formula: number;
  maco: number;
  governing: CriterionKey | null;
}

/** Criteria of one active alone, by the same rules and arithmetic as the matrix. */
function activeLimits(m: CompiledLimits, view: PairView): ActiveLimit[] {
  const { policy, products } = m.input;
  const prev = products[view.previous];
  if (!prev) return [];
  const mbs = m.minBatchSize[view.next] ?? Number.NaN;
  const mdd = m.maxDailyDose[view.next] ?? Number.NaN;
  const sf = effectiveSafetyFactor(policy);
  const bw = toBase(policy.bodyWeight, 'mass') / 1_000_000;
  const formulas = m.macFormulas
    ? macFormulaOutcomes(m.macFormulas, m.input, view.previous, view.next, view.area)
    : [];
  return prev.actives.map((active, index) => {
    const residueType = activeResidueType(active, policy);
    const hbel = hbelOf(active, policy);
    const health = hbel
      ? (toBase(hbel.quantity, 'mass') * mbs) / (policy.modificationFactor * mdd)
      : Number.NaN;
    const dose =
      policy.useDosage && residueType === 'Chemical' && active.therapeuticDose
        ? (toBase(active.therapeuticDose, 'mass') * mbs) / (sf * mdd)
        : Number.NaN;
    const ld50 =
      policy.useLd50 && residueType !== 'Nitrosamine' && active.ld50
        ? (((toBase(active.ld50, 'toxicity') * bw) / policy.ld50EmpiricalFactor) * mbs) / (sf * mdd)
        : Number.NaN;
    const arl = policy.useARL
      ? toBase(arlOf(policy, active.isIntermediate === true).quantity, 'concentration') *
        (m.batchMassKg[view.next] ?? Number.NaN)
      : Number.NaN;
    const values = [health, dose, ld50, arl];
    let governing = -1;
    values.forEach((v, k) => {
      if (Number.isNaN(v) || (governing !== -1 && policy.useFirstAvailableCriteria)) return;
      if (governing === -1 || isLower(v, values[governing] ?? Number.NaN)) governing = k;
    });
    let maco = governing === -1 ? Number.NaN : (values[governing] ?? Number.NaN);
    // The facility's approved MAC formulas for this active (and those that use no active's
    // value): the lowest governs where lower, after the first-available rule, as in the
    // matrix (matrix.ts): a site's formula only tightens a limit.
    const formula =
      lowestOutcome(
        formulas.filter((o) => o.active === index || o.active === -1),
        isLower,
      )?.value ?? Number.NaN;
    if (!Number.isNaN(formula) && (governing === -1 || isLower(formula, maco))) {
      governing = FORMULA;
      maco = formula;
    }
    return {
      active: active.id,
      health,
      dose,
      ld50,
      arl,
      formula,
      maco,
      governing: governing === -1 ? null : (CRITERION_KEYS[governing] ?? null),
    };
  });
}

const BASE_OF = { mass: 'mg', volume: 'ml', count: 'units' } as const;

function amountInputs(next: ProductSpec): DerivationInput[] {
  const kind = amountKind(next.minBatchSize);
  const unit = BASE_OF[kind];
  return [
    input(
      'MBS',
      `minimum batch size of next (${next.id})`,
      next.minBatchSize,
      toBase(next.minBatchSize, kind),
      unit,
      from('product', next.id, 'minimum batch size'),
    ),
    input(
      'MDD',
      `maximum daily dose of next (${next.id})`,
      next.maxDailyDose,
      toBase(next.maxDailyDose, kind),
      `${unit}/day`,
      from('product', next.id, 'maximum daily dose'),
    ),
  ];
}

function perActiveCriterion(
  m: CompiledLimits,
  view: PairView,
  criterion: typeof HEALTH | typeof DOSE | typeof LD50,
): Derivation {
  const { policy, products } = m.input;
  const p = view.previous;
  const n = view.next;
  const prev = products[p];
  const next = products[n];
  if (!prev || !next) throw new Error('pair outside the product list');
  const sf = effectiveSafetyFactor(policy);
  const nitrosamine = policy.residueType === 'Nitrosamine';
  const ratio = m.batchToDoseRatio[n] ?? Number.NaN;
  const mbs = m.minBatchSize[n] ?? Number.NaN;
  const mdd = m.maxDailyDose[n] ?? Number.NaN;
  const inputs = amountInputs(next);
  const policySource = (field: string) => fromPolicy(policy.residueType, field);
  const nitrosamineActive = prev.actives.some(
    (a) => activeResidueType(a, policy) === 'Nitrosamine',
  );
  const steps = [step('MBS/MDD', 'MBS / MDD', ratio, 'days')];
  let formula: string;
  let reference: string;
  let quantity: string;
  let off: string | undefined;
  if (criterion === HEALTH) {
    quantity = 'MACO, health-based';
    formula = 'MACO = HBEL × MBS / MDD';
    reference = nitrosamine
      ? 'ICH M7 acceptable intake used as the HBEL (reference §1.3)'
      : nitrosamineActive
        ? 'EMA HBEL guideline EMA/CHMP/CVMP/SWP/169430/2012; for a nitrosamine, its ICH M7 acceptable intake (reference §1.3)'
        : 'EMA HBEL guideline EMA/CHMP/CVMP/SWP/169430/2012; ISPE Risk-MaPP';
    if (!policy.useToxicity && !(nitrosamineActive && !nitrosamine)) {
      off = 'the policy does not use the health-based criterion';
    }
    if (policy.modificationFactor !== 1) {
      inputs.push(
        factorInput(
          'MF',
          'modification factor',
          policy.modificationFactor,
          policySource('modification factor'),
        ),
      );
      formula = 'MACO = HBEL / MF × MBS / MDD';
    }
  } else if (criterion === DOSE) {
    quantity = 'MACO, 1/1000 of the minimum therapeutic dose';
    formula = 'MACO = TDD × MBS / (SF × MDD)';
    reference = 'Fourman & Mullen 1993; APIC cleaning validation guidance 4.2.1';
    if (!policy.useDosage) off = 'the policy does not use the dose criterion';
    else if (policy.residueType !== 'Chemical') off = `no dose criterion for ${policy.residueType}`;
    inputs.push(factorInput('SF', 'safety factor (divisor)', sf, policySource('safety factor')));
  } else {
    quantity = 'MACO, LD50-based';
    formula = 'NOEL = LD50 × BW / EF;  MACO = NOEL × MBS / (SF × MDD)';
    reference = 'APIC cleaning validation guidance (LD50 route); Layton et al. 1987';
    if (!policy.useLd50) off = 'the policy does not use the LD50 criterion';
    else if (nitrosamine) off = 'no LD50 criterion for Nitrosamine';
    const bw = toBase(policy.bodyWeight, 'mass') / 1_000_000;
    inputs.push(
      input('BW', 'body weight', policy.bodyWeight, bw, 'kg', policySource('body weight')),
    );
    inputs.push(
      factorInput(
        'EF',
        'empirical factor',
        policy.ld50EmpiricalFactor,
        policySource('LD50 empirical factor'),
      ),
    );
    inputs.push(factorInput('SF', 'safety factor (divisor)', sf, policySource('safety factor')));
  }
  prev.actives.forEach((active) => {
    const residueType = activeResidueType(active, policy);
    if (criterion === HEALTH) {
      const hbel = hbelOf(active, policy);
      if (!hbel) return;
      const v = toBase(hbel.quantity, 'mass');
      inputs.push(
        input(
          `HBEL(${active.id})`,
          `${hbel.label} of ${active.id}`,
          hbel.quantity,
          v,
          'mg/day',
          from(
            'active',
            active.id,
            hbel.field === 'pde' && active.pdeLineage
              ? `${hbel.label}, from ${active.pdeLineage}`
              : hbel.label,
          ),
        ),
      );
      steps.push(
        step(
          `MACO(${active.id})`,
          `HBEL(${active.id}) / MF × MBS / MDD`,
          (v * mbs) / (policy.modificationFactor * mdd),
          'mg',
        ),
      );
    } else if (criterion === DOSE) {
      if (!active.therapeuticDose || residueType !== 'Chemical') return;
      const v = toBase(active.therapeuticDose, 'mass');
      inputs.push(
        input(
          `TDD(${active.id})`,
          `minimum therapeutic dose of ${active.id}`,
          active.therapeuticDose,
          v,
          'mg/day',
          from('active', active.id, 'minimum therapeutic dose'),
        ),
      );
      steps.push(
        step(
          `MACO(${active.id})`,
          `TDD(${active.id}) × MBS / (SF × MDD)`,
          (v * mbs) / (sf * mdd),
          'mg',
        ),
      );
    } else {
      if (!active.ld50 || residueType === 'Nitrosamine') return;
      const v = toBase(active.ld50, 'toxicity');
      const bw = toBase(policy.bodyWeight, 'mass') / 1_000_000;
      const noel = (v * bw) / policy.ld50EmpiricalFactor;
      inputs.push(
        input(
          `LD50(${active.id})`,
          `LD50 of ${active.id}`,
          active.ld50,
          v,
          'mg/kg',
          from('active', active.id, 'LD50'),
        ),
      );
      steps.push(step(`NOEL(${active.id})`, `LD50(${active.id}) × BW / EF`, noel, 'mg/day'));
      steps.push(
        step(
          `MACO(${active.id})`,
          `NOEL(${active.id}) × MBS / (SF × MDD)`,
          (noel * mbs) / (sf * mdd),
          'mg',
        ),
      );
    }
  });
  const value = view.criteria[criterion] ?? Number.NaN;
  const activeIndex = m.factorActive[p * CRITERION_COUNT + criterion] ?? -1;
  const note =
    off ??
    (Number.isNaN(value)
      ? `no active of ${prev.id} has the data`
      : `lowest over the actives of ${prev.id}: ${prev.actives[activeIndex]?.id ?? ''}`);
  return { quantity, formula, reference, inputs, steps, result: result(value, 'mg'), note };
}

/** The ARL that applies to an active: an intermediate under an Intermediate policy has its own. */
function arlOf(policy: CleaningLimitPolicy, isIntermediate: boolean) {
  const source = (field: string) => fromPolicy(policy.residueType, field);
  if (policy.residueType !== 'Intermediate') {
    return { quantity: policy.arl, source: source('general limit (ARL)') };
  }
  return isIntermediate
    ? { quantity: policy.intermediateArl, source: source('general limit for intermediates') }
    : { quantity: policy.activesArl, source: source('general limit for actives') };
}

function arlCriterion(m: CompiledLimits, view: PairView): Derivation {
  const { policy, products } = m.input;
  const n = view.next;
  const next = products[n];
  const prev = products[view.previous];
  if (!next || !prev) throw new Error('pair outside the product list');
  const governingActive = prev.actives[m.factorActive[view.previous * CRITERION_COUNT + ARL] ?? -1];
  const arl = arlOf(policy, governingActive?.isIntermediate === true);
  const inputs = [
    input(
      'ARL',
      'general limit in the next product',
      arl.quantity,
      toBase(arl.quantity, 'concentration'),
      'mg/kg',
      arl.source,
    ),
  ];
  const kind = amountKind(next.minBatchSize);
  inputs.push(
    input(
      'MBS',
      `minimum batch size of next (${next.id})`,
      next.minBatchSize,
      toBase(next.minBatchSize, kind),
      BASE_OF[kind],
      from('product', next.id, 'minimum batch size'),
    ),
  );
  let massExpression = 'MBS [mg] / 10^6';
  if (kind === 'volume') massExpression = 'MBS [ml] × 1 g/ml / 1000';
  if (kind === 'count') {
    massExpression = 'MBS [units] × unit weight [mg] / 10^6';
    if (next.unitWeight) {
      inputs.push(
        input(
          'UW',
          `unit weight of ${next.id}`,
          next.unitWeight,
          unitMassMg(next.unitWeight),
          'mg',
          from('product', next.id, 'unit weight'),
        ),
      );
    }
  }
  const massKg = m.batchMassKg[n] ?? Number.NaN;
  const value = view.criteria[ARL] ?? Number.NaN;
  const off = !policy.useARL
    ? 'the policy does not use the general limit'
    : prev.actives.length === 0
      ? `${prev.id} has no actives`
      : Number.isNaN(massKg)
        ? `no batch mass for ${next.id}: a batch in units needs a unit weight`
        : undefined;
  return {
    quantity: 'MACO, general limit (ARL)',
    formula: 'MACO = ARL [mg/kg] × batch mass [kg]',
    reference:
      'Fourman & Mullen 1993 (10 ppm); APIC general limit (MAXCONC); LeBlanc default limits',
    inputs,
    steps: [step('batch mass', massExpression, massKg, 'kg')],
    result: result(value, 'mg'),
    ...(off ? { note: off } : {}),
  };
}

/** Explains one pair, or returns undefined when the products do not share equipment. */
export function explainPair(
  source: LimitsInput | CompiledLimits,
  previousId: string,
  nextId: string,
  checks?: LimitChecks,
): PairExplanation | undefined {
  const m = 'factor' in source ? source : compileLimits(source);
  const { products, equipment, policy } = m.input;
  const p = products.findIndex((x) => x.id === previousId);
  const n = products.findIndex((x) => x.id === nextId);
  if (p < 0 || n < 0) return undefined;
  const view = newPairView(m.equipmentCount);
  if (!evaluatePairAt(m, p, n, view)) return undefined;
  const prev = products[p];
  if (!prev) return undefined;

  const criteria = {
    health: perActiveCriterion(m, view, HEALTH),
    dose: perActiveCriterion(m, view, DOSE),
    ld50: perActiveCriterion(m, view, LD50),
    arl: arlCriterion(m, view),
    product: {
      quantity: 'MACO, limit recorded on the previous product',
      formula: 'MACO = product limit',
      reference: 'company limit (policy useProductLimit)',
      inputs: prev.productLimit
        ? [
            input(
              'PL',
              `product limit of ${prev.id}`,
              prev.productLimit,
              toBase(prev.productLimit, 'mass'),
              'mg',
              from('product', prev.id, 'product limit'),
            ),
          ]
        : [],
      steps: [],
      result: result(view.criteria[4] ?? Number.NaN, 'mg'),
      note: policy.useProductLimit
        ? 'as recorded'
        : 'the policy does not use a limit recorded on the product',
    },
    formula: formulaDerivation(m, view),
  } satisfies Record<CriterionKey, Derivation>;

  const governing = view.governing === -1 ? null : (CRITERION_KEYS[view.governing] ?? null);
  const governingActive =
    view.governingActive === -1 ? null : (prev.actives[view.governingActive]?.id ?? null);
  const governingFormula = m.macFormulas?.formulas[view.governingFormula];
  const builtIn = policy.useFirstAvailableCriteria
    ? 'first available of health, dose, ld50, arl'
    : 'min(health, dose, ld50, arl)';
  const maco: Derivation = {
    quantity: 'MACO (governing)',
    formula: m.macFormulas ? `MACO = min(${builtIn}, formula)` : `MACO = ${builtIn}`,
    reference: 'APIC; PDA TR29; Fourman & Mullen: every criterion computed, the lowest governs',
    inputs: [],
    // The formula criterion is listed where the facility has approved MAC formulas.
    steps: CRITERION_KEYS.filter((k) => k !== 'formula' || m.macFormulas).map((k, i) =>
      step(k, `criterion ${k}`, view.criteria[i] ?? Number.NaN, 'mg'),
    ),
    result: result(view.maco, 'mg'),
    note: governing
      ? `governed by ${governing}${governingFormula ? ` ${formulaTitle(governingFormula)}` : ''}${governingActive ? ` (active ${governingActive})` : ''}`
      : 'every criterion is null',
  };

  const sharedEquipment: string[] = [];
  const areaInputs: DerivationInput[] = [];
  const areaItems: number[] = [];
  if (m.previousTrainBasis) {
    for (let t = m.trainStart[p] ?? 0; t < (m.trainStart[p + 1] ?? 0); t++)
      areaItems.push(m.trainItems[t] ?? 0);
  }
  for (let i = 0; i < view.sharedCount; i++) {
    const e = view.shared[i] ?? 0;
    sharedEquipment.push(equipment[e]?.id ?? '');
    if (!m.previousTrainBasis) areaItems.push(e);
  }
  for (const e of areaItems) {
    const item = equipment[e];
    if (item)
      areaInputs.push(
        input(
          `A(${item.id})`,
          `surface area of ${item.id}`,
          item.surfaceArea,
          m.equipmentArea[e] ?? 0,
          'sqcm',
          from('equipment', item.id, 'surface area'),
        ),
      );
  }
  const area: Derivation = {
    quantity: m.previousTrainBasis ? 'area of the previous product’s train' : 'shared surface area',
    formula: 'A = Σ product-contact area of the items',
    reference: m.previousTrainBasis
      ? 'reference §2.2: conservative option, the previous product’s whole train'
      : 'reference §2.2: SSA = equipment common to both trains',
    inputs: areaInputs,
    steps: [],
    result: result(view.area, 'sqcm'),
  };

  const batchMass = m.batchMassKg[n] ?? Number.NaN;
  const salInputs = [
    macoInput(view.maco),
    input('A', 'area', { value: view.area, unit: 'sqcm' }, view.area, 'sqcm', derived('area')),
  ];
  if (policy.useResidueLimit) {
    salInputs.push(
      input(
        'RL',
        'residue limit (L3 cap)',
        policy.residueLimit,
        m.residueLimit,
        'mg/sqcm',
        fromPolicy(policy.residueType, 'residue limit'),
      ),
    );
  }
  const sal: Derivation = {
    quantity: 'surface limit (SAL, L3)',
    formula: policy.useResidueLimit ? 'SAL = min(MACO / A, RL)' : 'SAL = MACO / A',
    reference: 'LeBlanc L3; ASTM E3418 MSSR; APIC target value per area',
    inputs: salInputs,
    steps: [step('MACO / A', 'MACO / A', view.maco / view.area, 'mg/sqcm')],
    result: result(view.sal, 'mg/sqcm'),
    ...(view.salCapped ? { note: 'capped at the residue limit' } : {}),
  };

  const explanation: PairExplanation = {
    previous: prev.id,
    next: products[n]?.id ?? '',
    sharedEquipment,
    criteria,
    governing,
    governingActive,
    maco,
    area,
    sal,
    limitInNextProduct: {
      quantity: 'limit in the next product (L1)',
      formula: 'L1 = MACO [mg] / batch mass [kg]',
      reference: 'LeBlanc L1 (Pharm. Technol. 1998); ppm = mg/kg',
      inputs: [macoInput(view.maco)],
      steps: [step('batch mass', 'batch mass of next', batchMass, 'kg')],
      result: result(view.maco / batchMass, 'ppm'),
      ...(Number.isNaN(batchMass)
        ? { note: 'no batch mass: a batch in units needs a unit weight' }
        : {}),
    },
    numbers: {
      criteria: Array.from(view.criteria),
      governing: view.governing,
      governingActive: view.governingActive,
      maco: view.maco,
      area: view.area,
      sal: view.sal,
      salCapped: view.salCapped,
      swabLimit: view.swabLimit,
      rinseLimit: view.rinseLimit,
    },
    perActive: activeLimits(m, view),
  };
  if (checks) explanation.flags = limitFlags(view, checks);
  Object.assign(explanation, sampleDerivations(m, view));
  if (explanation.swabLimit) explanation.swabLimitBasis = SAMPLE_RULE_NAMES[view.swabRule];
  if (explanation.rinseLimit) explanation.rinseLimitBasis = SAMPLE_RULE_NAMES[view.rinseRule];
  return explanation;
}
