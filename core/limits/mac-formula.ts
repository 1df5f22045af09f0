import {
  evaluateExpression,
  expressionNames,
  expressionText,
  parseExpression,
  type ExpressionNode,
} from '../expressions/expression.ts';
import { toBase } from '../units/quantity.ts';
import type { ActiveSpec, LimitsInput } from './model.ts';
import { effectiveArl, effectiveSafetyFactor } from './policy.ts';
import { hbelOf } from './residue-type.ts';

/*
 * A facility's own MACO criteria (MACFormula, spec §6): expressions over the limits engine's
 * variables, in the facility's one expression language, with units checked when a formula is
 * saved. An approved formula is one more criterion beside the built-in ones; the engine takes
 * the lowest, so a formula can only tighten a limit (matrix.ts).
 */

/** Exponents of mg, sqcm, day and kg of body weight: a quantity's dimension. */
type Dimension = readonly [number, number, number, number];

const PLAIN: Dimension = [0, 0, 0, 0];
const MASS: Dimension = [1, 0, 0, 0];
const PER_DAY: Dimension = [1, 0, -1, 0];

/** Where a variable's value comes from for a pair previous → next. */
type VariableScope = 'active' | 'next' | 'pair' | 'policy';

export interface MacVariable {
  name: string;
  /** In a reviewer's words, as a derivation names it. */
  meaning: string;
  /** The unit of the value a formula receives (base units: mg, sqcm, day, kg body weight). */
  unit: string;
  scope: VariableScope;
  dimension: Dimension;
  /** The field of the record it is read from, in words (a derivation's source). */
  field: string;
}

type Declared = [name: string, meaning: string, unit: string, field: string];

const declare = (
  scope: VariableScope,
  dimension: Dimension,
  [name, meaning, unit, field]: Declared,
) => ({ name, meaning, unit, scope, dimension, field }) satisfies MacVariable;

const OF_ACTIVE = 'of the previous product’s active';

/**
 * The variables a MAC formula may use: the symbols the engine's own derivations use
 * (explain.ts). Values are in the units shown, whatever unit they were entered in. Every active
 * value is one active of the previous product at a time: the formula is evaluated for each of
 * its actives and the lowest result counts, as for the built-in criteria.
 */
export const MAC_FORMULA_VARIABLES: readonly MacVariable[] = [
  declare('active', PER_DAY, [
    'HBEL',
    `HBEL ${OF_ACTIVE} (its PDE/ADE; a nitrosamine’s acceptable intake)`,
    'mg/day',
    'HBEL',
  ]),
  declare('active', PER_DAY, ['PDE', `PDE/ADE ${OF_ACTIVE}`, 'mg/day', 'PDE']),
  declare('active', PER_DAY, [
    'AI',
    `acceptable intake ${OF_ACTIVE}`,
    'mg/day',
    'acceptable intake',
  ]),
  declare('active', PER_DAY, [
    'TDD',
    `minimum therapeutic daily dose ${OF_ACTIVE}`,
    'mg/day',
    'minimum therapeutic dose',
  ]),
  declare('active', [1, 0, 0, -1], ['LD50', `LD50 ${OF_ACTIVE}`, 'mg/kg', 'LD50']),
  declare('active', PER_DAY, [
    'NOEL',
    `NOEL ${OF_ACTIVE} from its LD50 (LD50 × BW / EF, APIC)`,
    'mg/day',
    'LD50',
  ]),
  declare('next', MASS, [
    'MBS',
    'minimum batch size of the next product, as a mass',
    'mg',
    'minimum batch size',
  ]),
  declare('next', PER_DAY, [
    'MDD',
    'maximum daily dose of the next product, as a mass',
    'mg/day',
    'maximum daily dose',
  ]),
  declare(
    'pair',
    [0, 1, 0, 0],
    ['A', 'area the surface limit is spread over (shared surface area)', 'sqcm', 'area'],
  ),
  declare('policy', PLAIN, ['SF', 'safety factor of the policy (a divisor)', '-', 'safety factor']),
  declare('policy', PLAIN, ['MF', 'modification factor of the policy', '-', 'modification factor']),
  declare('policy', PLAIN, [
    'EF',
    'LD50 empirical factor of the policy',
    '-',
    'LD50 empirical factor',
  ]),
  declare(
    'policy',
    [0, 0, 0, 1],
    ['BW', 'body weight of the policy (LD50 route)', 'kg', 'body weight'],
  ),
  declare('policy', PLAIN, [
    'ARL',
    'general limit of the policy, as a mass fraction (10 ppm = 0.00001)',
    '-',
    'general limit (ARL)',
  ]),
];

const BY_NAME = new Map(MAC_FORMULA_VARIABLES.map((v) => [v.name, v]));

/** The functions a MAC formula may call: a limit is never rounded, and min and max keep units. */
const ALLOWED_FUNCTIONS = new Set(['min', 'max']);

/** A dimension as a unit, for messages: mg/day, mg·sqcm, a plain number. */
function unitText(d: Dimension): string {
  const names = ['mg', 'sqcm', 'day', 'kg'];
  const part = (sign: 1 | -1) =>
    d
      .map((e, i) => [names[i], e * sign] as const)
      .filter(([, e]) => e > 0)
      .map(([n, e]) => (e === 1 ? n : `${n}^${e}`))
      .join('·');
  const top = part(1);
  const bottom = part(-1);
  if (!top && !bottom) return 'a plain number';
  return bottom ? `${top || '1'}/${bottom}` : top;
}

const same = (a: Dimension, b: Dimension) => a.every((e, i) => Math.abs(e - (b[i] ?? 0)) < 1e-12);

class UnitProblem extends Error {}

function dimensionOf(node: ExpressionNode): Dimension {
  switch (node.type) {
    case 'number':
      return PLAIN;
    case 'name': {
      const found = BY_NAME.get(node.name);
      if (!found)
        throw new UnitProblem(
          `unknown variable '${node.name}' (known: ${MAC_FORMULA_VARIABLES.map((v) => v.name).join(', ')})`,
        );
      return found.dimension;
    }
    case 'unary':
      return dimensionOf(node.arg);
    case 'call': {
      if (!ALLOWED_FUNCTIONS.has(node.fn))
        throw new UnitProblem(`'${node.fn}' is not allowed in a MAC formula (allowed: min, max)`);
      const [first, ...rest] = node.args.map(dimensionOf);
      for (const d of rest)
        if (first && !same(first, d))
          throw new UnitProblem(
            `'${expressionText(node)}' compares ${unitText(first)} with ${unitText(d)}`,
          );
      return first ?? PLAIN;
    }
    case 'binary': {
      const left = dimensionOf(node.left);
      const right = dimensionOf(node.right);
      switch (node.op) {
        case '+':
        case '-':
          if (!same(left, right))
            throw new UnitProblem(
              `'${expressionText(node)}' ${node.op === '+' ? 'adds' : 'subtracts'} ${unitText(left)} and ${unitText(right)}`,
            );
          return left;
        case '*':
          return left.map((e, i) => e + (right[i] ?? 0)) as unknown as Dimension;
        case '/':
          return left.map((e, i) => e - (right[i] ?? 0)) as unknown as Dimension;
        case '^': {
          if (!same(right, PLAIN))
            throw new UnitProblem(
              `'${expressionText(node)}': the exponent ${expressionText(node.right)} has a unit (${unitText(right)})`,
            );
          if (same(left, PLAIN)) return PLAIN;
          const power = expressionNames(node.right).size === 0 ? constant(node.right) : Number.NaN;
          if (!Number.isInteger(power))
            throw new UnitProblem(
              `'${expressionText(node)}': a quantity in ${unitText(left)} can only be raised to a whole number`,
            );
          return left.map((e) => e * power) as unknown as Dimension;
        }
      }
    }
  }
}

function constant(node: ExpressionNode): number {
  try {
    return evaluateExpression(node, {});
  } catch {
    return Number.NaN;
  }
}

/**
 * What is wrong with a MAC formula, or undefined: its syntax, a name that is not a variable, a
 * function other than min and max, terms whose units do not match (naming the term), or a
 * result that is not a mass, the MACO's unit. The record's field check, so the API answers a
 * DataValidationError on `expression` and the form shows it on the field.
 */
export function macFormulaProblem(expression: string): string | undefined {
  let node: ExpressionNode;
  try {
    node = parseExpression(expression);
  } catch (error) {
    return `Invalid formula: ${error instanceof Error ? error.message : String(error)}`;
  }
  try {
    const d = dimensionOf(node);
    if (!same(d, MASS))
      return `Units do not match: the formula gives ${unitText(d)}, a MACO is a mass (mg)`;
    return undefined;
  } catch (error) {
    if (error instanceof UnitProblem) return `Units do not match: ${error.message}`;
    throw error;
  }
}

/** An approved formula as the engine receives it (`LimitsInput.macFormulas`). */
export interface MacFormulaSpec {
  /** The formula's name, unique in the facility. */
  id: string;
  expression: string;
  /** The approved version in force, for the derivation. */
  versionNumber?: number;
}

/** A formula ready to evaluate, or the reason it cannot be (a syntax or unit problem). */
export interface CompiledMacFormula {
  spec: MacFormulaSpec;
  node: ExpressionNode | null;
  problem: string | undefined;
  names: string[];
  usesActive: boolean;
  usesArea: boolean;
}

/** The variables' values of one side, by name (NaN or absent = not recorded). */
type Values = Record<string, number>;

/** Everything the formulas read, in base units, computed once per input. */
export interface MacFormulaSet {
  formulas: CompiledMacFormula[];
  /** Per product, per active (input order): the active's values. */
  activeValues: Values[][];
  /** Per product as next: MBS and MDD as masses. */
  nextValues: Values[];
  policyValues: Values;
  usesArea: boolean;
}

export function compileMacFormula(spec: MacFormulaSpec): CompiledMacFormula {
  const problem = macFormulaProblem(spec.expression);
  const node = problem ? null : parseExpression(spec.expression);
  const names = node ? [...expressionNames(node)] : [];
  return {
    spec,
    node,
    problem,
    names,
    usesActive: names.some((n) => BY_NAME.get(n)?.scope === 'active'),
    usesArea: names.includes('A'),
  };
}

function activeValues(active: ActiveSpec, input: LimitsInput, bodyWeightKg: number): Values {
  const { policy } = input;
  const values: Values = {};
  // The HBEL as recorded whatever the policy's own health criterion: a formula is its own criterion.
  const hbel = hbelOf(active, { ...policy, useToxicity: true });
  if (hbel) values.HBEL = toBase(hbel.quantity, 'mass');
  if (active.pde) values.PDE = toBase(active.pde, 'mass');
  if (active.acceptableIntake) values.AI = toBase(active.acceptableIntake, 'mass');
  if (active.therapeuticDose) values.TDD = toBase(active.therapeuticDose, 'mass');
  if (active.ld50) {
    values.LD50 = toBase(active.ld50, 'toxicity');
    values.NOEL = (values.LD50 * bodyWeightKg) / policy.ld50EmpiricalFactor;
  }
  return values;
}

/**
 * The formulas of an input with the values they read. `batchMg` and `doseMg` are each product's
 * minimum batch size and maximum daily dose as masses (compile.ts: a volume at 1 g/ml, units ×
 * unit weight, NaN without one).
 */
export function compileMacFormulas(
  input: LimitsInput,
  batchMg: ArrayLike<number>,
  doseMg: ArrayLike<number>,
): MacFormulaSet {
  const { policy, products } = input;
  const formulas = (input.macFormulas ?? []).map(compileMacFormula);
  const bodyWeightKg = toBase(policy.bodyWeight, 'mass') / 1_000_000;
  return {
    formulas,
    activeValues: products.map((p) => p.actives.map((a) => activeValues(a, input, bodyWeightKg))),
    nextValues: products.map((_, p) => ({
      MBS: batchMg[p] ?? Number.NaN,
      MDD: doseMg[p] ?? Number.NaN,
    })),
    policyValues: {
      SF: effectiveSafetyFactor(policy),
      MF: policy.modificationFactor,
      EF: policy.ld50EmpiricalFactor,
      BW: bodyWeightKg,
      ARL: toBase(effectiveArl(policy), 'concentration') / 1_000_000,
    },
    usesArea: formulas.some((f) => f.usesArea),
  };
}

/** One evaluation of one formula for one active of the previous product. */
export interface MacFormulaOutcome {
  formula: number;
  /** The previous product's active, -1 when the formula uses no active value. */
  active: number;
  /** The MACO in mg, NaN when unavailable. */
  value: number;
  /** Why it is unavailable: a value not recorded, a division by zero, a result not above 0. */
  reason?: string;
  /** The values substituted, by name. */
  values: Values;
}

function whyMissing(name: string, active: string | undefined, next: string): string {
  const v = BY_NAME.get(name);
  if (!v) return `no value for '${name}'`;
  if (v.scope === 'active') return `${name} is not recorded for active ${active ?? '(none)'}`;
  if (v.scope === 'next')
    return `${name} of ${next} has no mass (a batch in units needs a unit weight)`;
  if (v.scope === 'pair') return `${name} is not known for this pair`;
  return `${name} is not set in the policy`;
}

/**
 * Every formula for the pair previous `p` → next `n` (and each active of p where the formula
 * uses one), each with its value or the reason it has none. A missing value or a division by
 * zero makes that evaluation unavailable, never a silent 0 or infinity.
 */
export function macFormulaOutcomes(
  set: MacFormulaSet,
  input: LimitsInput,
  p: number,
  n: number,
  area: number,
): MacFormulaOutcome[] {
  const out: MacFormulaOutcome[] = [];
  const actives = input.products[p]?.actives ?? [];
  const nextName = input.products[n]?.id ?? '';
  const base: Values = { ...set.policyValues, ...set.nextValues[n], A: area };
  set.formulas.forEach((formula, f) => {
    if (!formula.node) {
      out.push({ formula: f, active: -1, value: Number.NaN, reason: formula.problem, values: {} });
      return;
    }
    const each = formula.usesActive && actives.length > 0 ? actives.map((_, a) => a) : [-1];
    for (const a of each) {
      const all: Values = a === -1 ? base : { ...base, ...set.activeValues[p]?.[a] };
      const values: Values = {};
      let reason: string | undefined;
      for (const name of formula.names) {
        const v = all[name];
        if (v === undefined || Number.isNaN(v)) {
          reason ??= whyMissing(name, actives[a]?.id, nextName);
        } else values[name] = v;
      }
      let value = Number.NaN;
      if (!reason) {
        try {
          value = evaluateExpression(formula.node, values);
          if (!Number.isFinite(value) || value <= 0) {
            reason = `the formula gives ${value}, not a MACO above 0 mg`;
            value = Number.NaN;
          }
        } catch (error) {
          reason = error instanceof Error ? error.message : String(error);
        }
      }
      out.push({ formula: f, active: a, value, values, ...(reason ? { reason } : {}) });
    }
  });
  return out;
}

/**
 * The lowest available outcome; `isLower` is the engine's comparison with its tie tolerance, so
 * a tie keeps the first (formulas, then actives, in input order).
 */
export function lowestOutcome(
  outcomes: readonly MacFormulaOutcome[],
  isLower: (value: number, best: number) => boolean,
): MacFormulaOutcome | null {
  let best: MacFormulaOutcome | null = null;
  for (const o of outcomes) {
    if (Number.isNaN(o.value)) continue;
    if (!best || isLower(o.value, best.value)) best = o;
  }
  return best;
}

/** The formula with its values in place of its variables, for a derivation. */
export function substitutedText(formula: CompiledMacFormula, values: Values): string {
  if (!formula.node) return formula.spec.expression;
  return expressionText(formula.node, (name) => {
    const v = values[name];
    return v === undefined ? name : String(v);
  });
}

export function macVariable(name: string): MacVariable | undefined {
  return BY_NAME.get(name);
}
