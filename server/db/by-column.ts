import type { SqlValue } from './db.ts';

/**
 * Rows as one array per column, for an INSERT … SELECT FROM unnest($1::type[], …) WITH
 * ORDINALITY: the statement's text and its parameter count stay the same whatever the number of
 * rows, where a VALUES list of one placeholder a value grew with each row (its text built in
 * JavaScript and parsed by the database, about twice the time of the unnest form for 10,000
 * rows of 21 columns on a PostgreSQL server).
 */
export function byColumn(rows: readonly (readonly SqlValue[])[], width: number): SqlValue[][] {
  const columns: SqlValue[][] = Array.from({ length: width }, () => []);
  for (const row of rows) for (let i = 0; i < width; i += 1) columns[i]!.push(row[i] ?? null);
  return columns;
}

/**
 * `unnest($first::t1[], …) with ordinality as alias(c0, c1, …, n)` for the given element types;
 * the rows come out in their order with `order by n`.
 */
export function unnestOf(types: readonly string[], alias: string, first = 1): string {
  const arrays = types.map((type, i) => `$${first + i}::${type}[]`).join(', ');
  const names = types.map((_, i) => `c${i}`).join(', ');
  return `unnest(${arrays}) with ordinality as ${alias}(${names}, n)`;
}
