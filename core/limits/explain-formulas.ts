import type { CompiledLimits } from './compile.ts';
import { FORMULA } from './compile.ts';
import { factorInput, from, fromPolicy, input, result, step } from './derivation.ts';
import type { Derivation, DerivationInput } from './derivation.ts';
import { derived } from './explain-samples.ts';
import { macFormulaOutcomes, macVariable, substitutedText } from './mac-formula.ts';
import type { CompiledMacFormula } from './mac-formula.ts';
import type { PairView } from './matrix.ts';
import { effectiveArl } from './policy.ts';
import { hbelOf } from './residue-type.ts';

/** A formula as a derivation names it: its name and the approved version in force. */
export function formulaTitle(formula: CompiledMacFormula): string {
  const { id, versionNumber } = formula.spec;
  return versionNumber === undefined ? id : `${id} (version ${versionNumber})`;
}

/** Each variable the formulas use, as entered on its record and in the unit the formula uses. */
function variableInputs(m: CompiledLimits, view: PairView, names: Set<string>): DerivationInput[] {
  const { policy, products } = m.input;
  const prev = products[view.previous];
  const next = products[view.next];
  const set = m.macFormulas;
  if (!prev || !next || !set) return [];
  const inputs: DerivationInput[] = [];
  const values = set.activeValues[view.previous] ?? [];
  const policySource = (field: string) => fromPolicy(policy.residueType, field);
  for (const name of names) {
    const v = macVariable(name);
    if (!v) continue;
    if (v.scope === 'active') {
      prev.actives.forEach((active, a) => {
        const value = values[a]?.[name];
        if (value === undefined) return;
        const entered =
          name === 'HBEL'
            ? hbelOf(active, { ...policy, useToxicity: true })?.quantity
            : name === 'PDE'
              ? active.pde
              : name === 'AI'
                ? active.acceptableIntake
                : name === 'TDD'
                  ? active.therapeuticDose
                  : name === 'LD50'
                    ? active.ld50
                    : undefined;
        const source =
          name === 'NOEL'
            ? derived(`LD50 of ${active.id} × BW / EF`)
            : from('active', active.id, v.field);
        inputs.push(
          input(
            `${name}(${active.id})`,
            `${name} of ${active.id}`,
            entered ?? { value, unit: v.unit },
            value,
            v.unit,
            source,
          ),
        );
      });
    } else if (v.scope === 'next') {
      const value = set.nextValues[view.next]?.[name] ?? Number.NaN;
      const entered = name === 'MBS' ? next.minBatchSize : next.maxDailyDose;
      inputs.push(
        input(
          name,
          `${v.meaning} (${next.id})`,
          entered,
          value,
          v.unit,
          from('product', next.id, v.field),
        ),
      );
    } else if (v.scope === 'pair') {
      inputs.push(
        input(
          name,
          v.meaning,
          { value: view.area, unit: 'sqcm' },
          view.area,
          'sqcm',
          derived('area'),
        ),
      );
    } else {
      const value = set.policyValues[name] ?? Number.NaN;
      const entered =
        name === 'BW' ? policy.bodyWeight : name === 'ARL' ? effectiveArl(policy) : null;
      inputs.push(
        entered
          ? input(name, v.meaning, entered, value, v.unit, policySource(v.field))
          : factorInput(name, v.meaning, value, policySource(v.field)),
      );
    }
  }
  return inputs;
}

/**
 * The facility's MAC formulas for one pair: each formula by name with its expression, the values
 * put in its variables and its result, or why it has none; the lowest is the criterion.
 */
export function formulaDerivation(m: CompiledLimits, view: PairView): Derivation {
  const set = m.macFormulas;
  const base = {
    quantity: 'MACO, facility MAC formulas',
    reference:
      'facility-defined criteria (MACFormula), each approved before it applies; like every criterion it governs only where it is the lowest (reference §1.6)',
  };
  if (!set) {
    return {
      ...base,
      formula: 'MACO = min(approved MAC formulas)',
      inputs: [],
      steps: [],
      result: null,
      note: 'the facility has no approved MAC formula',
    };
  }
  const actives = m.input.products[view.previous]?.actives ?? [];
  const outcomes = macFormulaOutcomes(set, m.input, view.previous, view.next, view.area);
  const names = new Set(set.formulas.flatMap((f) => f.names));
  const steps = outcomes.map((o) => {
    const formula = set.formulas[o.formula];
    const title = formula ? formulaTitle(formula) : '';
    const symbol = o.active === -1 ? title : `${title} (${actives[o.active]?.id ?? ''})`;
    const expression = formula
      ? o.reason
        ? `${formula.spec.expression}: unavailable, ${o.reason}`
        : `${formula.spec.expression} = ${substitutedText(formula, o.values)}`
      : '';
    return step(symbol, expression, o.value, 'mg');
  });
  const value = view.criteria[FORMULA] ?? Number.NaN;
  const reasons = [...new Set(outcomes.flatMap((o) => (o.reason ? [o.reason] : [])))];
  const governing = set.formulas.findIndex((_, f) =>
    outcomes.some((o) => o.formula === f && o.value === value),
  );
  const governingFormula = set.formulas[governing];
  return {
    ...base,
    formula: set.formulas.map((f) => `${formulaTitle(f)}: MACO = ${f.spec.expression}`).join('; '),
    inputs: variableInputs(m, view, names),
    steps,
    result: result(value, 'mg'),
    note: [
      Number.isNaN(value)
        ? `no MAC formula could be evaluated: ${reasons.join('; ')}`
        : `lowest: ${governingFormula ? formulaTitle(governingFormula) : ''}`,
      ...(set.formulas.some((f) => hasLiteral(f.spec.expression)) ? [LITERALS] : []),
    ].join('; '),
  };
}

/**
 * A number written in a formula has no unit: it is a plain factor (a safety factor, 1/1000),
 * and the formula's unit comes from its variables alone, checked to be a mass before it could be
 * approved. A number that stood for a quantity (a batch of 100 kg typed in) would escape that
 * check, so the derivation says how its numbers are read.
 */
const LITERALS =
  'numbers written in a formula are plain factors without a unit; its unit is that of its variables, checked to be a mass when it was saved';

/** A number standing alone, not a digit of a variable's name (LD50). */
const hasLiteral = (expression: string) => /(^|[^A-Za-z0-9_.])\.?\d/.test(expression);
