import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useFacilityTestServer } from '../test/facility-test-file.ts';
import { withDatabase } from '../test/test-db-urls.ts';
import { trigramIndexes } from '../test/trigram-indexes.ts';

/*
 * Issue 34: pages of a search or a sort are kept too (list-totals.ts), with their totals, and
 * read from the sort's index. None of them may answer what was true before a change that moves
 * it: a search after an edit, a total after a create or an archive, a sorted page after a rename.
 */

const t = useFacilityTestServer();

interface Row {
  id: number;
  name: string;
  version: number;
}
const list = async (query: string) => {
  const res = await t.call('GET', `${t.F}/equipments?${query}`);
  expect(res.status).toBe(200);
  return res.body as { data: Row[]; total: number };
};
const create = async (name: string) => {
  const res = await t.call('POST', `${t.F}/equipments`, {
    name,
    material: 'Glass',
    surfaceArea: { value: 1, unit: 'sqm' },
  });
  expect(res.status).toBe(200);
  return res.body.result as Row;
};
const rename = async (row: Row, name: string) => {
  const res = await t.call('POST', `${t.F}/equipments/${row.id}`, {
    name,
    version: row.version,
    reason: 'Renamed',
  });
  expect(res.status).toBe(200);
  return res.body.result as Row;
};
const names = (page: { data: Row[] }) => page.data.map((r) => r.name);

describe('kept list pages after a change that moves them', () => {
  it('answers a search anew after an edit, a create and an archive', async () => {
    const search = 'pageLimit=10&search=Kettle';
    expect(await list(search)).toMatchObject({ data: [], total: 0 });
    const vessel = await create('Fresh vessel 1');
    expect((await list(search)).total).toBe(0);

    const kettle = await rename(vessel, 'Fresh kettle 1');
    expect(names(await list(search))).toEqual(['Fresh kettle 1']);
    expect((await list(search)).total).toBe(1);

    await create('Fresh kettle 2');
    expect(await list(search)).toMatchObject({ total: 2 });
    expect(names(await list(search))).toEqual(['Fresh kettle 1', 'Fresh kettle 2']);

    const archived = await t.call('PUT', `${t.F}/equipments/${kettle.id}/archive`, {
      reason: 'Gone',
    });
    expect(archived.status).toBe(200);
    expect(names(await list(search))).toEqual(['Fresh kettle 2']);
    expect((await list(search)).total).toBe(1);
    expect(names(await list('pageLimit=10&search=Kettle 1'))).toEqual([]);
  });

  it('answers sorted pages anew after a create and a rename, ties by id in the sort direction', async () => {
    const byNameDesc = 'pageLimit=2&sortBy=name&sortOrder=desc';
    const first = await create('Sorted ~ 1');
    const before = await list(byNameDesc);
    expect(names(before)[0]).toBe('Sorted ~ 1');

    const second = await create('Sorted ~ 2');
    const after = await list(byNameDesc);
    expect(names(after)).toEqual(['Sorted ~ 2', 'Sorted ~ 1']);
    expect(after.total).toBe(before.total + 1);

    await rename(second, 'Sorted ! 2');
    expect(names(await list(byNameDesc))[0]).toBe('Sorted ~ 1');

    // Made at one moment (an import's rows are): the newest first by creation means the later
    // id first, page after page, each row once.
    await t.server.db.query(
      `update equipment set created_at = now() + interval '1 day' where id = any($1::int[])`,
      [[first.id, second.id]],
    );
    const byCreated = (page: number) =>
      list(`pageLimit=1&pageNumber=${page}&sortBy=createdAt&sortOrder=desc`);
    expect((await byCreated(1)).data[0]!.id).toBe(second.id);
    expect((await byCreated(2)).data[0]!.id).toBe(first.id);
    const all = await list('pageLimit=100&sortBy=createdAt&sortOrder=asc');
    expect(new Set(all.data.map((r) => r.id)).size).toBe(all.total);
  });

  it('answers each page of each sort as one read of the whole list does, page after page, before and after a write', async () => {
    for (const n of [3, 1, 4, 1, 5]) await create(`Paged ${n} ${Math.random()}`);
    const sorts = ['', '&sortBy=name&sortOrder=desc', '&sortBy=createdAt&sortOrder=asc'];
    const pagesInTurn = async (sort: string) => {
      const ids: number[] = [];
      for (let page = 1; ; page += 1) {
        const { data, total } = await list(`pageLimit=2&pageNumber=${page}${sort}`);
        ids.push(...data.map((r) => r.id));
        if (ids.length >= total || data.length === 0) return ids;
      }
    };
    const whole = async (sort: string) =>
      (await list(`pageLimit=100${sort}`)).data.map((r) => r.id);
    for (const sort of sorts) {
      expect(await pagesInTurn(sort)).toEqual(await whole(sort));
      // Read again in turn (each page after a kept one), and after a row lands among them.
      expect(await pagesInTurn(sort)).toEqual(await whole(sort));
      await create(`Paged 2 ${Math.random()}`);
      expect(await pagesInTurn(sort)).toEqual(await whole(sort));
    }
  });

  it('answers a page started after a kept page some pages back as its offset does, and anew after a write moves rows across it', async () => {
    for (let n = 0; n < 12; n += 1) await create(`Seek ${String(n).padStart(2, '0')}`);
    const sorts = ['', '&sortBy=name&sortOrder=desc', '&sortBy=createdAt&sortOrder=asc'];
    // Out of order, as pages asked a few at a time arrive: page 4 with nothing kept before it,
    // then after page 1 (three pages back), 7 after 4, 8 after 7, 3 after 1, 9 after 8.
    const order = [4, 1, 4, 7, 8, 3, 9];
    const checkPages = async (query: string) => {
      const all = (await list(`pageLimit=100${query}`)).data.map((r) => r.id);
      for (const page of order) {
        const { data, total } = await list(`pageLimit=2&pageNumber=${page}${query}`);
        expect(data.map((r) => r.id)).toEqual(all.slice((page - 1) * 2, page * 2));
        expect(total).toBe(all.length);
      }
    };
    let moved = await create('Seek 05b');
    for (const query of [...sorts, ...sorts.map((sort) => `${sort}&search=Seek`)]) {
      await checkPages(query);
      // A row moved from one end to the other, and a row added: kept pages of the version
      // before (pages 2 to 9) must not start a page any more.
      moved = await rename(moved, moved.name === 'Seek 05b' ? 'Seek ~05b' : 'Seek 05b');
      await create(`Seek 00 ${Math.random()}`);
      await checkPages(query);
    }
  });

  it('answers a page anew, with its total, when the kept page it would start after was moved by a write this server did not make', async () => {
    const rows: Row[] = [];
    for (let n = 1; n <= 6; n += 1) rows.push(await create(`Elsewhere ${n}`));
    const query = 'pageLimit=2&search=Elsewhere';
    const page = async (n: number) => list(`${query}&pageNumber=${n}`);
    expect(names(await page(1))).toEqual(['Elsewhere 1', 'Elsewhere 2']);
    expect(names(await page(2))).toEqual(['Elsewhere 3', 'Elsewhere 4']);
    // As another instance would (on a server, its own connection, heard only through the
    // list-version notice): the first row moves to the end, one row is archived.
    const outside = async (write: (sql: string, params: unknown[]) => Promise<unknown>) => {
      await write(`update equipment set name = 'Elsewhere 9' where id = $1`, [rows[0]!.id]);
      await write(
        `update equipment set archived_at = now(), archive_reason = 'Gone' where id = $1`,
        [rows[3]!.id],
      );
    };
    if (t.server.db.kind === 'postgres') {
      const [db] = await t.server.db.query<{ name: string }>('select current_database() as name');
      const client = new pg.Client({
        connectionString: withDatabase(process.env.DATABASE_URL!, db!.name),
      });
      await client.connect();
      try {
        await outside((sql, params) => client.query(sql, params));
      } finally {
        await client.end();
      }
    } else await outside((sql, params) => t.server.db.query(sql, params as never));
    // Page 3 would start after the kept page 2, whose version has moved.
    const third = await page(3);
    const all = await list(`pageLimit=100&search=Elsewhere`);
    expect(all.data.map((r) => r.name)).toEqual([
      'Elsewhere 2',
      'Elsewhere 3',
      'Elsewhere 5',
      'Elsewhere 6',
      'Elsewhere 9',
    ]);
    expect(names(third)).toEqual(['Elsewhere 9']);
    expect(third.total).toBe(5);
    expect(names(await page(2))).toEqual(['Elsewhere 5', 'Elsewhere 6']);
    expect((await page(1)).total).toBe(5);
  });

  it('answers every page of a search, of a term of one letter or several, in each sort as the whole list filtered does, before and after writes that move its rows', async () => {
    const rows: Row[] = [];
    for (const n of [5, 2, 8, 1, 9, 3, 7]) rows.push(await create(`Qx match ${n}`));
    const sorts = ['', '&sortBy=name&sortOrder=desc', '&sortBy=createdAt&sortOrder=asc'];
    // The oracle: every row of the list in the sort, unsearched, filtered here.
    const whole = async (sort: string) => {
      const all: Row[] = [];
      for (let page = 1; ; page += 1) {
        const { data, total } = await list(`pageLimit=100&pageNumber=${page}${sort}`);
        all.push(...data);
        if (all.length >= total || data.length === 0) return all;
      }
    };
    const found = (row: Row & { externalId?: string | null }, term: string) =>
      `${row.name}\n${row.externalId ?? ''}`.toLowerCase().includes(term.toLowerCase());
    const check = async () => {
      // Terms of one or two characters (no trigram for an index to narrow them: each row is
      // read) with a letter and without, a wildcard taken literally, and longer terms with
      // letters and without (the API trims a term's spaces).
      for (const term of ['q', '7', '99', '%', 'qx m', 'Match 7', 'h 9', '999'])
        for (const sort of sorts) {
          const expected = (await whole(sort)).filter((row) => found(row, term)).map((r) => r.id);
          const pages = Math.ceil(expected.length / 3) + 1;
          // Last page first (none kept before it: read at its offset), then in turn (each
          // after the one kept before it).
          const turns = [...Array(pages).keys()].map((i) => i + 1);
          for (const page of [...[...turns].reverse(), ...turns]) {
            const query = `pageLimit=3&pageNumber=${page}&search=${encodeURIComponent(term)}${sort}`;
            const { data, total } = await list(query);
            expect(
              data.map((r) => r.id),
              query,
            ).toEqual(expected.slice((page - 1) * 3, page * 3));
            expect(total, query).toBe(expected.length);
          }
        }
    };
    await check();
    // Out of the search, to its other end, archived, and a new row at its start.
    rows[0] = await rename(rows[0]!, 'Renamed away 5');
    rows[1] = await rename(rows[1]!, 'Qx match 999');
    const archived = await t.call('PUT', `${t.F}/equipments/${rows[2]!.id}/archive`, {
      reason: 'Gone',
    });
    expect(archived.status).toBe(200);
    await create('Qx match 0');
    await check();
  });

  it('searches trigram indexes that keep no pending list, so a new row is found at once from the index itself', async () => {
    const indexes = await trigramIndexes(t.server.db);
    expect(indexes.map((i) => i.name)).toContain('equipment_search_name');
    for (const index of indexes) expect(index.options, index.name).toContain('fastupdate=off');
    await create('Trigram vessel');
    expect(names(await list('pageLimit=10&search=igram ves'))).toEqual(['Trigram vessel']);
  });
});
