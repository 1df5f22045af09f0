import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activesDef, productsDef } from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import { seedDemo } from '#server/cli/seed-demo.ts';
import { ROWS_PER_STATEMENT } from '#server/entities/entity-bulk.ts';
import { verifyChain } from '#server/modules/audit/audit-chain.ts';
import { columnsOf } from './workbook-columns.ts';
import { buildUser } from '#server/test/factories.ts';
import { startTestServer, type TestServer } from '#server/test/test-server.ts';

let server: TestServer;
let token: string;
let F1: string;
let F2: string;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

beforeAll(async () => {
  server = await startTestServer();
  token = await server.login();
  const facilities = await server.db.query<{ id: number; plan_id: number }>(
    'select id, plan_id from facilities order by id',
  );
  F1 = `/api/v2/plans/${facilities[0]!.plan_id}/facilities/${facilities[0]!.id}`;
  F2 = `/api/v2/plans/${facilities[1]!.plan_id}/facilities/${facilities[1]!.id}`;
  await seedDemo(server.db, facilities[0]!.id);
});
afterAll(async () => {
  await server?.close();
});

async function download(
  F: string,
  as = token,
): Promise<{ status: number; buffer: Buffer; headers: Headers }> {
  const res = await fetch(`${server.url}${F}/master`, { headers: { token: as } });
  return { status: res.status, buffer: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

async function upload(F: string, buffer: Buffer, as = token) {
  const res = await fetch(`${server.url}${F}/master?fileName=demo.xlsx`, {
    method: 'POST',
    headers: { token: as, 'content-type': XLSX },
    body: new Uint8Array(buffer),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- checked by assertions
}

async function sheets(buffer: Buffer): Promise<Record<string, unknown[][]>> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const out: Record<string, unknown[][]> = {};
  workbook.eachSheet((ws) => {
    const rows: unknown[][] = [];
    ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    out[ws.name] = rows;
  });
  return out;
}

const count = async (table: string, facility: string) => {
  const id = Number(facility.split('/').pop());
  const [row] = await server.db.query<{ n: number }>(
    `select count(*)::int as n from ${table} where facility_id = $1`,
    [id],
  );
  return row!.n;
};

describe('master data workbook', () => {
  it('is refused without the Master BulkExport / BulkImport permissions', async () => {
    const user = await buildUser(server.db);
    const as = await server.login(user.username, user.password);
    expect((await download(F1, as)).status).toBe(403);
    expect((await upload(F1, Buffer.from('x'), as)).status).toBe(403);
  });

  it('exports one sheet per section with the facility’s rows', async () => {
    const { status, buffer, headers } = await download(F1);
    expect(status).toBe(200);
    expect(headers.get('content-type')).toContain(XLSX);
    expect(headers.get('content-disposition')).toContain(
      'Master Data - Oral Solid Dosage Plant.xlsx',
    );
    const book = await sheets(buffer);
    expect(Object.keys(book)).toEqual(
      expect.arrayContaining([
        'Actives',
        'Products',
        'Equipment',
        'Productions',
        'Production-Equipment matrix',
        'mappings',
        'Analytical methods',
        'Cleaning agents',
      ]),
    );
    expect(book.Actives).toHaveLength(1 + 30);
    expect(book.Equipment![0]).toEqual([
      'Name',
      'External ID',
      'Surface area',
      'Surface area unit',
      'Material of construction',
      'Room grade',
    ]);
    const metformin = book.Products!.find((r) => String(r[0]).startsWith('Metformin 500 mg'))!;
    expect(metformin).toContain('Metformin hydrochloride | 500 mg');
    expect(book['Production-Equipment matrix']!.slice(1).some((r) => r.includes('X'))).toBe(true);
  });

  it('imports its own export into an empty facility, all in one transaction, and again changes nothing', async () => {
    const { buffer } = await download(F1);
    const first = await upload(F2, buffer);
    expect(first.status, JSON.stringify(first.body).slice(0, 800)).toBe(200);
    expect(first.body.created).toBe(30 + 48 + 84 + 8 + 4 + 3);
    expect(await count('products', F2)).toBe(48);
    const again = await upload(F2, buffer);
    expect(again.body).toMatchObject({ created: 0, updated: 0 });
    // The second facility now exports the same workbook.
    expect(await sheets((await download(F2)).buffer)).toEqual(await sheets(buffer));
    const [audit] = await server.db.query<{ n: number }>(
      `select count(*)::int as n from audit_log where facility_id = $1 and reason = 'Imported from demo.xlsx'`,
      [Number(F2.split('/').pop())],
    );
    expect(audit!.n).toBe(first.body.created);
  });

  it('re-imports an unchanged export of its own facility as no change, with no audit row', async () => {
    const auditRows = async () => {
      const [row] = await server.db.query<{ n: number }>(
        'select count(*)::int as n from audit_log where facility_id = $1',
        [Number(F1.split('/').pop())],
      );
      return row!.n;
    };
    // Stored in another order than the workbook lists them (matrix columns, mapping rows).
    await server.db.query(
      `update productions
          set equipment_ids = array(select unnest(equipment_ids) order by 1 desc),
              product_ids = array(select unnest(product_ids) order by 1 desc)
        where facility_id = $1`,
      [Number(F1.split('/').pop())],
    );
    const { buffer } = await download(F1);
    const before = await auditRows();
    const res = await upload(F1, buffer);
    expect(res.status, JSON.stringify(res.body).slice(0, 800)).toBe(200);
    expect(res.body).toMatchObject({ created: 0, updated: 0 });
    expect(await auditRows()).toBe(before);
  });

  it('imports more rows than one statement takes: later batches name rows of earlier ones, every row has its audit row, and the chain holds', async () => {
    const n = 2 * ROWS_PER_STATEMENT + 7;
    const workbook = new ExcelJS.Workbook();
    // Each sheet has every column of its entity, as an export does; cells by column header.
    const addSheet = (name: string, def: EntityDef, rows: Record<string, unknown>[]) => {
      const headers = columnsOf(def).map((c) => c.header);
      const sheet = workbook.addWorksheet(name);
      sheet.addRow(headers);
      for (const row of rows) sheet.addRow(headers.map((h) => row[h] ?? null));
    };
    const each = <T>(make: (i: number) => T) => Array.from({ length: n }, (_, i) => make(i));
    addSheet(
      'Actives',
      activesDef,
      each((i) => ({ Name: `Batch active ${i}`, 'PDE/ADE': 0.5, 'PDE/ADE unit': 'mg' })),
    );
    // The first product names the last active, written in another statement.
    addSheet(
      'Products',
      productsDef,
      each((i) => ({
        Name: `Batch product ${i}`,
        'Largest daily dose': 100,
        'Largest daily dose unit': 'mg',
        'Minimum batch size': 50,
        'Minimum batch size unit': 'kg',
        Actives: `Batch active ${n - 1 - i} | 10 mg`,
      })),
    );
    const facilityId = Number(F2.split('/').pop());
    const auditRows = async () => {
      const [row] = await server.db.query<{ n: number }>(
        `select count(*)::int as n from audit_log where facility_id = $1 and action = 'Create'`,
        [facilityId],
      );
      return row!.n;
    };
    const before = await auditRows();
    const res = await upload(F2, Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(res.status, JSON.stringify(res.body).slice(0, 800)).toBe(200);
    expect(res.body).toMatchObject({ created: 2 * n, updated: 0, rows: 2 * n });
    expect(await auditRows()).toBe(before + 2 * n);
    expect(await verifyChain(server.db, `facility:${facilityId}`)).toMatchObject({ intact: true });
    const exported = (await sheets((await download(F2)).buffer)).Products!;
    for (const i of [0, ROWS_PER_STATEMENT, n - 1])
      expect(exported.find((r) => r[0] === `Batch product ${i}`)).toContain(
        `Batch active ${n - 1 - i} | 10 mg`,
      );
    // Tables loaded in bulk are planned from statistics that count the new rows (issue 34).
    const [stats] = await server.db.query<{ tuples: number }>(
      `select reltuples::int as tuples from pg_class where oid = 'products'::regclass`,
    );
    expect(stats!.tuples).toBeGreaterThanOrEqual(n);
  });

  it('reports every problem by sheet, row and column, and changes nothing', async () => {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await download(F1)).buffer as unknown as ArrayBuffer);
    const equipment = workbook.getWorksheet('Equipment')!;
    equipment.getRow(3).getCell(4).value = 'mg';
    equipment.getRow(5).getCell(3).value = 'lots';
    equipment.addRow(['New tank', 'EQ-NEW', 10, 'sqm', 'Glass', 'Z']);
    workbook.getWorksheet('mappings')!.addRow(['Line 1', 'No such product']);
    const edited = Buffer.from(await workbook.xlsx.writeBuffer());
    const before = await count('equipment', F1);
    const res = await upload(F1, edited);
    expect(res.status).toBe(422);
    expect(res.body.errName).toBe('DataValidationError');
    expect(res.body.otherErrors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ sheet: 'Equipment', row: 3, column: 'Surface area unit' }),
        expect.objectContaining({
          sheet: 'Equipment',
          row: 5,
          column: 'Surface area',
          message: expect.stringContaining('not a number'),
        }),
        expect.objectContaining({
          sheet: 'Equipment',
          row: equipment.rowCount,
          column: 'Room grade',
        }),
        expect.objectContaining({
          sheet: 'mappings',
          column: 'Product',
          message: "no product named 'No such product'",
        }),
      ]),
    );
    expect(await count('equipment', F1)).toBe(before);
    const notXlsx = await upload(F1, Buffer.from('plain text'));
    expect(notXlsx.body).toMatchObject({
      errName: 'DataValidationError',
      errors: [{ property: 'file' }],
    });
  });
});
