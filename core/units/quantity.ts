import { BASE_UNIT, UNITS, isUnit, kindOf } from './units.ts';
import type { Unit, UnitKind, UnitOf } from './units.ts';

/** A number never travels without its unit. */
export interface Quantity<U extends string = Unit> {
  readonly value: number;
  readonly unit: U;
}

export type QuantityOf<K extends UnitKind> = Quantity<UnitOf<K>>;

/**
 * Raised when a quantity of one kind is used where another is expected (a surface area given in
 * kg, an LD50 given in ppm). The limits engine treats this as an error, never a silent number.
 */
export class UnitKindError extends Error {
  readonly expected: readonly UnitKind[];
  readonly actual: string;

  constructor(expected: readonly UnitKind[], actual: string) {
    super(
      isUnit(actual)
        ? `unit ${actual} is a ${kindOf(actual)}, expected ${expected.join(' or ')}`
        : `unknown unit ${JSON.stringify(actual)}, expected ${expected.join(' or ')}`,
    );
    this.name = 'UnitKindError';
    this.expected = expected;
    this.actual = actual;
  }
}

export function quantity<U extends Unit>(value: number, unitName: U): Quantity<U> {
  return { value, unit: unitName };
}

/** Checks that a (possibly untrusted) unit belongs to the kind and narrows it. */
export function assertKind<K extends UnitKind>(
  unitName: string,
  kind: K,
): asserts unitName is UnitOf<K> {
  if (!isUnit(unitName) || kindOf(unitName) !== kind) throw new UnitKindError([kind], unitName);
}

/** Factor that turns a value in `from` into a value in `to`, both of the same kind. */
export function conversionFactor(from: Unit, to: Unit): number {
  const a = UNITS[from];
  const b = UNITS[to];
  if (a.kind !== b.kind) throw new UnitKindError([b.kind], from);
  return (a.numerator * b.denominator) / (a.denominator * b.numerator);
}

/**
 * Converts a value between two units of one kind. The integer factors are multiplied first and
 * the value is scaled once, so ug → mg is value / 1000 (correctly rounded), not value × 0.001.
 */
export function convertValue(value: number, from: Unit, to: Unit): number {
  const a = UNITS[from];
  const b = UNITS[to];
  if (a.kind !== b.kind) throw new UnitKindError([b.kind], from);
  if (from === to) return value;
  const numerator = a.numerator * b.denominator;
  const denominator = a.denominator * b.numerator;
  return denominator === 1 ? value * numerator : (value * numerator) / denominator;
}

export function convert<U extends Unit>(q: Quantity, to: U): Quantity<U> {
  if (!isUnit(q.unit)) throw new UnitKindError([kindOf(to)], q.unit);
  return { value: convertValue(q.value, q.unit, to), unit: to };
}

/** The value in the base unit of the expected kind; throws when the quantity is of another kind. */
export function toBase<K extends UnitKind>(q: Quantity<string>, kind: K): number {
  assertKind(q.unit, kind);
  return convertValue(q.value, q.unit, BASE_UNIT[kind]);
}

/** Same as `toBase` but for a named target unit of the expected kind. */
export function valueIn<K extends UnitKind>(q: Quantity<string>, kind: K, to: UnitOf<K>): number {
  assertKind(q.unit, kind);
  return convertValue(q.value, q.unit, to);
}

export function sameKind(a: Quantity<string>, b: Quantity<string>): boolean {
  return isUnit(a.unit) && isUnit(b.unit) && kindOf(a.unit) === kindOf(b.unit);
}

/** Adds quantities of one kind; the result is in the unit of the first. */
export function add<U extends Unit>(a: Quantity<U>, ...rest: Quantity[]): Quantity<U> {
  let total = a.value;
  for (const q of rest) {
    if (!isUnit(q.unit)) throw new UnitKindError([kindOf(a.unit)], q.unit);
    total += convertValue(q.value, q.unit, a.unit);
  }
  return { value: total, unit: a.unit };
}

/** Compares quantities of one kind: negative, zero or positive like a sort comparator. */
export function compare(a: Quantity, b: Quantity): number {
  if (!isUnit(a.unit)) throw new UnitKindError([], a.unit);
  const other = convert(b, a.unit);
  return a.value - other.value;
}

export function format(q: Quantity<string>): string {
  return `${q.value} ${q.unit}`;
}
