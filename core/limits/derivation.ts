/**
 * How a number was reached, in a form a reviewer can redo by hand and the client can show:
 * the formula, each input with its unit as given and in the unit used, where it came from, each
 * intermediate value, and the result.
 */

export interface DerivationInput {
  /** Symbol used in the formula, e.g. `MBS`. */
  symbol: string;
  name: string;
  /** The value as entered, with its unit. */
  given: { value: number; unit: string };
  /** The value in the unit the formula uses. */
  value: number;
  unit: string;
  /**
   * Where it came from, in a reviewer's words: the record and its field ("product Syrup B:
   * minimum batch size", "cleaning limit policy: safety factor"), or a value derived above.
   */
  source: string;
  /** The record a reviewer can open, when the value was entered on one. */
  record?: SourceRecord;
}

/** The kinds of record an input can come from (master data the client can link to). */
export type SourceKind =
  'product' | 'active' | 'cleaningAgent' | 'equipment' | 'samplingType' | 'policy';

export interface SourceRecord {
  kind: SourceKind;
  /** The record's name (products, actives, equipment and sampling types are named uniquely). */
  name: string;
  /** The field, in words. */
  field: string;
}

const KIND_WORDS: Record<SourceKind, string> = {
  product: 'product',
  active: 'active',
  cleaningAgent: 'cleaning agent',
  equipment: 'equipment',
  samplingType: 'sampling type',
  policy: 'cleaning limit policy',
};

/** A field of a record as an input's source. */
export function from(kind: SourceKind, name: string, field: string): SourceRecord {
  return { kind, name, field };
}

/** The policy's own field: the policy is one per residue type, so its name is that type. */
export function fromPolicy(residueType: string, field: string): SourceRecord {
  return { kind: 'policy', name: residueType, field };
}

function sourceText(r: SourceRecord): string {
  return r.kind === 'policy'
    ? `${r.name} cleaning limit policy: ${r.field}`
    : `${KIND_WORDS[r.kind]} ${r.name}: ${r.field}`;
}

export interface DerivationStep {
  symbol: string;
  expression: string;
  value: number | null;
  unit: string;
}

export interface Derivation {
  quantity: string;
  formula: string;
  /** The guideline behind the formula. */
  reference: string;
  inputs: DerivationInput[];
  steps: DerivationStep[];
  result: { value: number; unit: string } | null;
  /** Why the result is null (switched off, data missing), or how it was chosen. */
  note?: string;
}

export function input(
  symbol: string,
  name: string,
  given: { value: number; unit: string },
  value: number,
  unit: string,
  source: string | SourceRecord,
): DerivationInput {
  const entered = { value: given.value, unit: given.unit };
  if (typeof source === 'string') return { symbol, name, given: entered, value, unit, source };
  return { symbol, name, given: entered, value, unit, source: sourceText(source), record: source };
}

/** A plain number that has no unit of its own (a factor, a percentage). */
export function factorInput(
  symbol: string,
  name: string,
  value: number,
  source: string | SourceRecord,
) {
  return input(symbol, name, { value, unit: '-' }, value, '-', source);
}

export function step(symbol: string, expression: string, value: number, unit: string) {
  return { symbol, expression, value: Number.isFinite(value) ? value : null, unit };
}

export function result(value: number, unit: string): Derivation['result'] {
  return Number.isFinite(value) ? { value, unit } : null;
}

/** Renders a derivation as text lines, for reports and the command line. */
export function renderDerivation(d: Derivation): string[] {
  const lines = [`${d.quantity}: ${d.formula}  (${d.reference})`];
  for (const i of d.inputs) {
    const converted =
      i.given.unit === i.unit && i.given.value === i.value ? '' : ` = ${i.value} ${i.unit}`;
    lines.push(
      `  ${i.symbol} (${i.name}) = ${i.given.value} ${i.given.unit}${converted}  [${i.source}]`,
    );
  }
  for (const s of d.steps)
    lines.push(`  ${s.symbol} = ${s.expression} = ${s.value ?? 'n/a'} ${s.unit}`);
  lines.push(
    `  = ${d.result ? `${d.result.value} ${d.result.unit}` : 'null'}${d.note ? ` (${d.note})` : ''}`,
  );
  return lines;
}
