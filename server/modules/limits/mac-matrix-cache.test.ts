import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractDocument } from '#core/limits/contract-output.ts';
import { columnsDocument } from '#core/limits/matrix-columns.ts';
import {
  ZMacColumns,
  type TMacPairsPage,
  type TMacPairsQuery,
} from '#core/schemas/mac-matrix.schemas.ts';
import { changeAssessmentKit } from '#server/test/change-assessment-kit.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { adminEditor, changePolicyInForce, policyApprover } from '#server/test/policy-in-force.ts';
import type { Queryable } from '#server/db/db.ts';
import { computableLimitsInput } from './computable-input.ts';
import {
  equipmentLimits,
  productionLimits,
  productionPairs,
  worstCaseRanking,
} from './limit-reports.service.ts';
import { isCatalogued } from '#core/audit/audit-events.ts';
import { macColumnsBuilds } from './mac-columns.ts';
import { limitsDataVersion, macMatrixCache } from './mac-matrix-cache.ts';
import { pagePairs } from './mac-pairs.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';

const t = useFacilityTestServer();
let facility: MacFacility;
beforeAll(async () => {
  facility = await buildMacFacility(t.server, t.facilityId);
});

const call = (method: string, path: string, body?: unknown) =>
  t.call(method, `${facility.F}${path}`, body);
const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const QUERIES: TMacPairsQuery[] = [
  { pageNumber: 1, pageLimit: 2 },
  { pageNumber: 2, pageLimit: 2 },
  { pageNumber: 1, pageLimit: 10, sort: '-maco' },
  { pageNumber: 1, pageLimit: 10, failingOnly: 'true' },
];
const queryString = (q: TMacPairsQuery) =>
  Object.entries(q)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join('&');

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The whole matrix, pages of pairs and the limits reports, as the (cached) server answers them. */
async function served() {
  const matrix = await call('GET', '/mac-matrix');
  expect(matrix.status).toBe(200);
  // The columns answer, serialised and gzipped once per state and kept with it, says exactly
  // what the document says: after a change, never the bytes of the state before it.
  const columns = await call('GET', '/mac-matrix?format=columns');
  expect(columns.status).toBe(200);
  expect(json(columnsDocument(ZMacColumns.parse(columns.body)))).toEqual(matrix.body);
  const pages: TMacPairsPage[] = [];
  for (const q of QUERIES) {
    const res = await call('GET', `/mac-matrix/pairs?${queryString(q)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    pages.push(res.body as TMacPairsPage);
  }
  const reports = [];
  for (const path of [
    '/limits/equipment',
    '/limits/productions',
    `/limits/productions/${facility.line1}/pairs`,
    '/limits/worst-case-ranking',
  ]) {
    const res = await call('GET', path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { units: _units, ...report } = res.body;
    reports.push(report);
  }
  return { matrix: matrix.body, pages, reports };
}

/** The same, computed afresh from the database with no cache at all. */
async function fresh() {
  const { input, uncomputable } = await computableLimitsInput(t.server.db, facility.facilityId);
  // Not the app's database itself: the reports compute afresh (macMatrixState).
  const uncached: Queryable = {
    query: (sql, params) => t.server.db.query(sql, params),
    exec: (sql) => t.server.db.exec(sql),
  };
  const f = facility.facilityId;
  return {
    matrix: json({ ...contractDocument(input), uncomputable }),
    pages: QUERIES.map((q) => json({ ...pagePairs(input, q), uncomputable })),
    reports: json([
      await equipmentLimits(uncached, f),
      await productionLimits(uncached, f),
      await productionPairs(uncached, f, facility.line1),
      await worstCaseRanking(uncached, f),
    ]),
  };
}

async function expectCurrent() {
  const answer = await served();
  expect(answer).toEqual(await fresh());
  return answer.matrix;
}

const idOf = async (path: string, name: string) => {
  const res = await call('GET', `/${path}?search=${name}&pageLimit=100`);
  return (res.body.data as TestBody[]).find((r) => r.name === name)!.id as number;
};

async function edit(path: string, name: string, values: Record<string, unknown>) {
  const id = await idOf(path, name);
  const current = await call('GET', `/${path}/${id}`);
  const res = await call('POST', `/${path}/${id}`, {
    ...values,
    reason: 'Changed',
    version: current.body.version,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('the cached MAC matrix', () => {
  it('answers pairs pages that agree with the whole matrix', async () => {
    const { matrix, pages } = await served();
    const all = await call('GET', '/mac-matrix/pairs?pageLimit=100');
    const names = (ps: TestBody[]) => ps.map((p) => `${p.previous}>${p.next}`);
    expect(names(all.body.data)).toEqual(names(matrix.pairs));
    expect(names([...pages[0]!.data, ...pages[1]!.data])).toEqual(names(matrix.pairs));
    for (const pair of all.body.data as TestBody[]) {
      // Beside the contract's pair: its flags and which rule set each sample limit.
      const { flags: _flags, swabLimitBasis: _swab, rinseLimitBasis: _rinse, ...rest } = pair;
      expect(matrix.pairs).toContainEqual(rest);
    }
  });

  let archivedId = 0;
  // Each change moves at least one limit; the cached answer must follow it at once.
  const changes: [string, () => Promise<unknown>][] = [
    ['a product’s dose', () => edit('products', 'A', { maxDailyDose: { value: 250, unit: 'mg' } })],
    [
      'a product’s batch size',
      () => edit('products', 'B', { minBatchSize: { value: 120, unit: 'kg' } }),
    ],
    ['an active’s PDE', () => edit('apis', 'Beta', { pde: { value: 2, unit: 'ug' } })],
    [
      'an equipment surface area',
      () => edit('equipments', 'E1', { surfaceArea: { value: 15, unit: 'sqm' } }),
    ],
    [
      'a production’s equipment',
      async () => edit('productions', 'Line 1', { equipmentIds: [await idOf('equipments', 'E1')] }),
    ],
    [
      'an approved policy change',
      () =>
        changePolicyInForce(
          t.server,
          facility.F,
          'cleaning_limit_policies',
          { residueType: 'Chemical', safetyFactor: 2000, reason: 'Tighter' },
          adminEditor(t.token),
        ),
    ],
    [
      'an archive',
      async () => {
        archivedId = await idOf('products', 'D');
        const res = await call('PUT', `/products/${archivedId}/archive`, {
          reason: 'D discontinued; its pairs are no longer computed',
          confirmImpact: true,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      },
    ],
    [
      'a restore',
      async () => {
        const res = await call('POST', `/products/${archivedId}`, {
          unArchive: true,
          reason: 'Back',
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      },
    ],
    [
      'a workbook import',
      async () => {
        const download = await fetch(`${t.server.url}${facility.F}/master`, {
          headers: { token: t.token },
        });
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(await download.arrayBuffer());
        const products = workbook.getWorksheet('Products')!;
        const header = (products.getRow(1).values as unknown[]).slice(1);
        const dose = header.indexOf('Largest daily dose') + 1;
        products.eachRow((row, n) => {
          if (n > 1 && row.getCell(1).value === 'B') row.getCell(dose).value = 650;
        });
        const res = await fetch(`${t.server.url}${facility.F}/master?fileName=dose.xlsx`, {
          method: 'POST',
          headers: { token: t.token, 'content-type': XLSX },
          body: new Uint8Array(Buffer.from(await workbook.xlsx.writeBuffer())),
        });
        expect(res.status, await res.clone().text()).toBe(200);
      },
    ],
    [
      'an approved change assessment',
      async () => {
        const kit = changeAssessmentKit((method, path, body, as) =>
          t.call(method, `${facility.F}${path}`, body, as),
        );
        const created = await call('POST', '/change-assessments', {
          title: 'Raise C dose',
          changeType: 'HBEL/dose/batch change',
        });
        let ca = created.body.changeAssessment as TestBody;
        const staged = await call('POST', `/change-assessments/${ca.id}/changes`, {
          reason: 'Planned change',
          version: ca.version,
          op: 'update',
          entity: 'products',
          recordId: await idOf('products', 'C'),
          values: { maxDailyDose: { value: 900, unit: 'mg' } },
        });
        expect(staged.status, JSON.stringify(staged.body)).toBe(200);
        ca = staged.body.changeAssessment as TestBody;
        const evaluated = await call('POST', `/change-assessments/${ca.id}/evaluate`, {
          version: ca.version,
        });
        expect(evaluated.status, JSON.stringify(evaluated.body)).toBe(200);
        ca = await kit.decideAll(evaluated.body.changeAssessment as TestBody);
        expect((await kit.sign(ca.id as number, 'Submit', adminEditor(t.token))).status).toBe(200);
        const approver = await policyApprover(t.server, facility.F);
        const approved = await kit.sign(ca.id as number, 'Approve', approver);
        expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      },
    ],
  ];

  it.each(changes)('follows %s at once', async (_name, change) => {
    const before = await expectCurrent();
    // Asked twice: the second answer comes from the cache.
    expect(await expectCurrent()).toEqual(before);
    await change();
    const after = await expectCurrent();
    expect(after).not.toEqual(before);
  });

  it('serialises and gzips the columns answer once per state of the data', async () => {
    const columns = () => call('GET', '/mac-matrix?format=columns');
    await columns();
    const built = macColumnsBuilds();
    const first = await columns();
    const again = await columns();
    expect(again.body).toEqual(first.body);
    expect(macColumnsBuilds()).toBe(built);
    // A change that moves a limit: a new state, serialised and compressed once again.
    await edit('products', 'B', { minBatchSize: { value: 140, unit: 'kg' } });
    const changed = await columns();
    expect(macColumnsBuilds()).toBe(built + 1);
    expect(changed.body).not.toEqual(first.body);
    await columns();
    expect(macColumnsBuilds()).toBe(built + 1);
    await expectCurrent();
  });

  it('keeps its state across an export, which records a read and changes nothing', async () => {
    const db = t.server.db;
    const before = await macMatrixCache(db).get(db, facility.facilityId);
    const exported = await fetch(`${t.server.url}${facility.F}/mac-matrix/export`, {
      headers: { token: t.token },
    });
    expect(exported.status).toBe(200);
    await exported.arrayBuffer();
    const heads = await limitsDataVersion(db, facility.facilityId);
    expect(await macMatrixCache(db).get(db, facility.facilityId)).toBe(before);
    await edit('equipments', 'E2', { surfaceArea: { value: 6000, unit: 'sqcm' } });
    expect(await limitsDataVersion(db, facility.facilityId)).not.toBe(heads);
    expect(await macMatrixCache(db).get(db, facility.facilityId)).not.toBe(before);
    await expectCurrent();
  });

  it('follows a row written by SQL outside the app, which leaves no audit row', async () => {
    const db = t.server.db;
    const before = await macMatrixCache(db).get(db, facility.facilityId);
    await db.query(
      `insert into products (facility_id, name, min_batch_size, max_daily_dose, actives)
       values ($1, 'Written by SQL', '{"value":100,"unit":"kg"}', '{"value":2,"unit":"units"}', '[]')`,
      [facility.facilityId],
    );
    expect(await macMatrixCache(db).get(db, facility.facilityId)).not.toBe(before);
    await expectCurrent();
  });

  it('answers asOf from the database, never from the cache', async () => {
    const now = new Date().toISOString();
    await expectCurrent();
    await edit('products', 'A', { maxDailyDose: { value: 275, unit: 'mg' } });
    const then = await call('GET', `/mac-matrix?asOf=${encodeURIComponent(now)}`);
    const current = await expectCurrent();
    expect(then.status).toBe(200);
    expect(then.body.pairs).not.toEqual(current.pairs);
  });
});

describe('the audit rows of these flows', () => {
  it('are all in the catalogue of audit events', async () => {
    const written = await t.server.db.query<{ domain: string; action: string }>(
      'select distinct domain, action from audit_log order by domain, action',
    );
    expect(written.length).toBeGreaterThan(5);
    const outside = written.filter((row) => !isCatalogued(row.domain, row.action));
    expect(outside).toEqual([]);
  });
});
