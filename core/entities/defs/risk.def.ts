import { identifierProblem, rpnExpressionProblem } from '#core/schemas/rpn-formula.schemas.ts';
import type { EntityDef } from '../entity.ts';

/** A risk category (RPN-style scoring): a factor with its levels and the score of each. */
export const rpnCategoriesDef = {
  key: 'rpnCategories',
  label: 'Risk category',
  pluralLabel: 'Risk categories',
  path: 'rpn_categories',
  table: 'rpn_categories',
  resource: 'RPNCategory',
  domain: 'RPNCategory',
  description:
    'Risk categories used in risk priority numbers (FMEA, ICH Q9): a factor such as solubility, toxicity or cleanability, the RPN dimension it scores (severity, occurrence or detectability), and its levels, each with a label and a score. Its variable is the name risk formulas use for the category’s score.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    {
      name: 'variable',
      label: 'Formula variable',
      kind: 'text',
      max: 50,
      required: true,
      check: identifierProblem,
      description: 'The name risk formulas use for this category’s score, e.g. `severity`.',
    },
    {
      name: 'dimension',
      label: 'RPN dimension',
      kind: 'enum',
      options: ['Severity', 'Occurrence', 'Detectability', 'Other'],
    },
    {
      name: 'levels',
      label: 'Levels',
      kind: 'list',
      of: [
        { name: 'label', label: 'Level', kind: 'text', max: 100, required: true },
        { name: 'score', label: 'Score', kind: 'integer', min: 1, max: 10, required: true },
        { name: 'description', label: 'Meaning', kind: 'longText', max: 1000 },
      ],
    },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['name', 'variable'],
  search: ['name', 'variable'],
  listColumns: ['name', 'variable', 'dimension', 'levels'],
} as const satisfies EntityDef<string>;

/** A risk formula: arithmetic over variables and risk category scores. */
export const rpnFormulasDef = {
  key: 'rpnFormulas',
  label: 'Risk formula',
  pluralLabel: 'Risk formulas',
  path: 'rpn_formulas',
  table: 'rpn_formulas',
  resource: 'RPNFormula',
  domain: 'RPNFormula',
  description:
    'Risk formulas: an expression over the facility’s variables and risk category variables, such as `severity * occurrence * detectability` (FMEA RPN). Numbers, names, + - * / ^, parentheses and the functions min, max, abs, sqrt, log10, ln and round are allowed; the syntax is checked when the formula is saved.',
  fields: [
    { name: 'name', label: 'Name', kind: 'text', required: true },
    {
      name: 'expression',
      label: 'Expression',
      kind: 'text',
      max: 500,
      required: true,
      check: rpnExpressionProblem,
    },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['name'],
  search: ['name', 'expression'],
  listColumns: ['name', 'expression'],
} as const satisfies EntityDef<string>;

/** How the worst case is chosen among the products sharing equipment. */
export const selectionCriteriaDef = {
  key: 'selectionCriteria',
  label: 'Selection criterion',
  pluralLabel: 'Selection criteria',
  path: 'selection-criteria',
  table: 'selection_criteria',
  resource: 'SelectionCriteria',
  domain: 'SelectionCriteria',
  verbs: 'post-or-put',
  description:
    'Selection criteria: how the worst-case product is chosen per equipment item, equipment group or production (lowest MACO, most toxic, least soluble, hardest to clean, highest RPN by a risk formula…). The criterion id is the facility’s own identifier of the criterion; the priority orders criteria when several apply (1 first).',
  fields: [
    { name: 'criteriaId', label: 'Criteria ID', kind: 'text', max: 50, required: true },
    { name: 'name', label: 'Name', kind: 'text', required: true },
    {
      name: 'basis',
      label: 'Worst case by',
      kind: 'enum',
      required: true,
      options: [
        'Lowest MACO',
        'Lowest PDE',
        'Lowest solubility',
        'Hardest to clean',
        'Highest RPN',
        'Highest potency',
        'Smallest batch size',
        'Largest daily dose',
      ],
    },
    {
      name: 'appliesTo',
      label: 'Applies to',
      kind: 'enum',
      options: ['Equipment', 'Equipment group', 'Production'],
    },
    { name: 'priority', label: 'Priority', kind: 'integer', min: 1, max: 100 },
    {
      name: 'rpnFormulaId',
      label: 'Risk formula',
      kind: 'reference',
      entity: 'rpnFormulas',
      description: 'The formula whose result ranks products when the basis is Highest RPN.',
    },
    { name: 'description', label: 'Description', kind: 'longText' },
  ],
  unique: ['criteriaId', 'name'],
  search: ['criteriaId', 'name'],
  listColumns: ['criteriaId', 'name', 'basis', 'appliesTo', 'priority'],
} as const satisfies EntityDef<string>;
