import { macFormulaProblem, MAC_FORMULA_VARIABLES } from '../../limits/mac-formula.ts';
import type { EntityDef } from '../entity.ts';

const VARIABLES = MAC_FORMULA_VARIABLES.map((v) => `${v.name} (${v.unit})`).join(', ');

/**
 * A facility's own MACO criterion (spec §6 MACFormula): an expression over the limits engine's
 * variables, a controlled record. Only its approved version takes part in the limits, as one
 * more criterion that governs only where it is the lowest (core/limits/mac-formula.ts).
 */
export const macFormulasDef = {
  key: 'macFormulas',
  label: 'MAC formula',
  pluralLabel: 'MAC formulas',
  path: 'mac-formulas',
  table: 'mac_formulas',
  resource: 'MACFormula',
  domain: 'MACFormula',
  description: `The facility's own MACO criteria: each an expression over the limits engine's variables that gives a mass, such as \`TDD * MBS / (5000 * MDD)\`. Numbers, the variables, + - * / ^, parentheses, min and max are allowed; the units are checked when the formula is saved and a formula that does not give a mass (mg) is refused, naming the term. Only an approved version takes part in the limits, as one more criterion beside health, dose, LD50 and the general limit: the lowest governs, so a formula can only tighten a limit. Variables: ${VARIABLES}.`,
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    {
      name: 'expression',
      label: 'Expression',
      kind: 'text',
      max: 500,
      required: true,
      check: macFormulaProblem,
      description: `Gives the MACO in mg. Variables: ${VARIABLES}.`,
    },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['name'],
  search: ['name', 'expression'],
  listColumns: ['name', 'expression'],
  // Its approval moves limits: under change control a change assessment puts it in force.
  controlled: { documentType: 'MacFormula', changeControlled: true },
  // Beside the cleaning limit policies, not in the master-data menu.
  screen: '/policies/mac-formulas',
} as const satisfies EntityDef<string>;
