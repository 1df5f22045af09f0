import { validationError } from '#core/errors/errors.ts';

/*
 * The one way many rows reach a table in one statement (bulk inserts and updates): every row in
 * one jsonb parameter, read with the table's own row type, so each value is typed as its column
 * by the database itself. The statement's text and parameter count stay the same whatever the
 * number of rows; a VALUES list of a placeholder a value grew with each row and was parsed anew.
 * Measured on the PostgreSQL server, 10,000 rows of 17 columns: Node CPU about half that of one
 * array a column through unnest (30 against 55 ms a statement), the database's time alike.
 *
 * Values are given as JSON gives them: a jsonb column's as the object or array itself (a string
 * would be stored as a JSON string), an array column's as the array, a timestamp as a Date or
 * its ISO text.
 */

export type JsonRow = Readonly<Record<string, unknown>>;

/**
 * The rows as the statement's parameter. JSON has no NaN or Infinity and would write them as
 * null: a value that is not a finite number is refused, never saved as nothing.
 */
export function jsonRows(rows: readonly JsonRow[]): string {
  for (const row of rows)
    for (const key in row) {
      const value = row[key];
      if (typeof value === 'number' && !Number.isFinite(value))
        throw validationError([
          { property: key, constraints: { isFinite: 'must be a finite number' } },
        ]);
    }
  return JSON.stringify(rows);
}

/**
 * `jsonb_populate_recordset(null::table, $n::jsonb) with ordinality as alias`: the rows of
 * parameter $n typed as the table's columns, numbered in the order given (`order by
 * alias.ordinality` inserts them in that order, as the audit chain needs).
 */
export function recordsetOf(table: string, param: number, alias: string): string {
  return `jsonb_populate_recordset(null::${table}, $${param}::jsonb) with ordinality as ${alias}`;
}
