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
  /** Where it came from: an input path such as `products[1].minBatchSize`, or a policy field. */
  source: string;
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
  source: string,
): DerivationInput {
  return { symbol, name, given: { value: given.value, unit: given.unit }, value, unit, source };
}

/** A plain number that has no unit of its own (a factor, a percentage). */
export function factorInput(symbol: string, name: string, value: number, source: string) {
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
