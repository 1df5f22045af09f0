import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '#server/test/test-db.ts';
import { jsonRows, recordsetOf } from './json-rows.ts';

// The one bulk-row mechanism carries GMP numbers (results' raw values, limits): every double
// must arrive as itself, each column typed by the table, in the order given.
let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  await (
    await db.owner()
  ).exec(
    `create table json_rows_probe (id serial primary key, x float8, n int, t text, j jsonb,
       ids int[], at timestamptz, ok boolean)`,
  );
});
afterAll(async () => {
  await db?.close();
});

const COLUMNS = ['x', 'n', 't', 'j', 'ids', 'at', 'ok'];

async function insertAndRead(rows: Record<string, unknown>[]) {
  await db.query('delete from json_rows_probe');
  await db.query(
    `insert into json_rows_probe (${COLUMNS.join(', ')})
     select ${COLUMNS.map((c) => `v.${c}`).join(', ')} from ${recordsetOf('json_rows_probe', 1, 'v')}
      order by v.ordinality`,
    [jsonRows(rows)],
  );
  return db.query<Record<string, unknown>>(
    `select x, n, t, j, ids, at, ok from json_rows_probe order by id`,
  );
}

describe('rows as one jsonb parameter of the table’s own row type', () => {
  it('keeps every finite double exactly, and each row in its order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), {
          minLength: 1,
          maxLength: 40,
        }),
        async (xs) => {
          const read = await insertAndRead(xs.map((x) => ({ x })));
          // -0 is written by JSON as 0: the same number for every comparison a limit makes.
          expect(read.map((r) => r.x)).toEqual(xs.map((x) => (Object.is(x, -0) ? 0 : x)));
        },
      ),
      { numRuns: 25 },
    );
  });

  it('types each value as its column: jsonb objects, int arrays, timestamps, text, booleans', async () => {
    const at = new Date('2026-12-07T10:11:12.345Z');
    const [row] = await insertAndRead([
      { x: 5e-324, n: 7, t: '12', j: { a: [1, 'b'], c: null }, ids: [3, 1, 2], at, ok: false },
    ]);
    expect(row).toEqual({
      x: 5e-324,
      n: 7,
      t: '12',
      j: { a: [1, 'b'], c: null },
      ids: [3, 1, 2],
      at,
      ok: false,
    });
  });

  it('refuses a value that is not a finite number instead of saving it as nothing', () => {
    for (const x of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
      expect(() => jsonRows([{ x: 1 }, { x }])).toThrow(/x: must be a finite number/);
  });
});
