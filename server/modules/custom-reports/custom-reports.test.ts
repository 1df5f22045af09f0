import { forbiddenTextReport } from '#core/labels/forbidden-text.ts';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TMacPairsPage } from '#core/schemas/mac-matrix.schemas.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { facilityPath, setFacilityKind } from '#server/test/test-server.ts';
import { buildMacFacility } from '#server/test/mac-test-data.ts';

const t = useFacilityTestServer();
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A session whose role in every facility holds exactly these permissions. */
async function sessionWith(allowed: Record<string, string[]>): Promise<string> {
  const user = await buildUser(t.server.db, { permissions: permissionsWith(allowed) });
  return t.server.login(user.username, user.password);
}

async function saveReport(body: Record<string, unknown>): Promise<number> {
  const res = await t.call('POST', `${t.F}/report-data`, body);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.result.id as number;
}

async function download(path: string, as = t.token) {
  const res = await fetch(`${t.server.url}${path}`, { headers: { token: as } });
  return { status: res.status, buffer: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

let equipmentReport: number;
beforeAll(async () => {
  await buildMacFacility(t.server, t.facilityId);
  // E1 12.5 sqm, E2 5000 sqcm and E3 1 sqm from the MAC facility; ten more of 2 sqm each.
  for (let i = 1; i <= 10; i++) {
    const res = await t.call('POST', `${t.F}/equipments`, {
      name: `Tank ${String(i).padStart(2, '0')}`,
      surfaceArea: { value: 2, unit: 'sqm' },
      roomGrade: i % 2 === 0 ? 'C' : 'D',
    });
    expect(res.status).toBe(200);
  }
  equipmentReport = await saveReport({
    name: 'Large equipment',
    source: 'equipment',
    columns: [{ key: 'name' }, { key: 'surfaceArea' }, { key: 'roomGrade' }],
    filters: [{ column: 'surfaceArea', operator: 'GreaterThanEqualTo', value: '10000' }],
  });
});

describe('custom report permissions', () => {
  it('refuses every call without ReportDocument Get', async () => {
    const as = await sessionWith({ Equipment: ['Get'] });
    for (const path of [
      'report-info',
      'report-config/equipment/data',
      `${equipmentReport}/report-data/data`,
      `${equipmentReport}/report-data/download`,
      `report-data/${equipmentReport}`,
      'report-data',
    ]) {
      const res = await t.call('GET', `${t.F}/${path}`, undefined, as);
      expect(res.status, path).toBe(403);
      expect(res.body.errName, path).toBe('NotAllowed');
    }
    const create = await t.call(
      'POST',
      `${t.F}/report-data`,
      { name: 'x', source: 'equipment', columns: [{ key: 'name' }] },
      as,
    );
    expect(create.status).toBe(403);
  });

  it('refuses the data of a source whose own permission the caller lacks, and audits it', async () => {
    const auditReport = await saveReport({
      name: 'Audit trail',
      source: 'auditEntries',
      columns: [{ key: 'at' }, { key: 'action' }],
    });
    const as = await sessionWith({ ReportDocument: ['Get'], Equipment: ['Get'] });
    const refused = await t.call('GET', `${t.F}/${auditReport}/report-data/data`, undefined, as);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('This needs the right to see the audit log');
    expect((await download(`${t.F}/${auditReport}/report-data/download`, as)).status).toBe(403);
    const [row] = await t.server.db.query<{ domain: string }>(
      `select domain from audit_log where action = 'AccessRefused' order by id desc limit 1`,
    );
    expect(row?.domain).toBe('AuditLog');
    // Equipment Get is held: that report's data is readable.
    const ok = await t.call('GET', `${t.F}/${equipmentReport}/report-data/data`, undefined, as);
    expect(ok.status).toBe(200);
    const info = await t.call('GET', `${t.F}/report-info`, undefined, as);
    const allowed = Object.fromEntries(
      (info.body.sources as { key: string; allowed: boolean }[]).map((s) => [s.key, s.allowed]),
    );
    expect(allowed).toEqual({
      pairs: false,
      products: false,
      equipment: true,
      sampleResults: false,
      auditEntries: false,
    });
  });

  it('needs the limits’ read permission for pairs', async () => {
    const pairs = await saveReport({
      name: 'Pairs p',
      source: 'pairs',
      columns: [{ key: 'maco' }],
    });
    const without = await sessionWith({ ReportDocument: ['Get'] });
    expect(
      (await t.call('GET', `${t.F}/${pairs}/report-data/data`, undefined, without)).status,
    ).toBe(403);
    const withIt = await sessionWith({ ReportDocument: ['Get'], RiskCalculation: ['Get'] });
    expect(
      (await t.call('GET', `${t.F}/${pairs}/report-data/data`, undefined, withIt)).status,
    ).toBe(200);
  });

  it('keeps a facility’s reports in that facility', async () => {
    // The seeded second facility is lite, which has no custom reports at all (facility gate).
    await setFacilityKind(t.server, 1, { tier: 'full' });
    const other = await facilityPath(t.server, 1);
    const res = await t.call('GET', `${other}/${equipmentReport}/report-data/data`);
    expect(res.status).toBe(404);
    expect(res.body.errName).toBe('NotFoundError');
  });
});

describe('GET report-info and report-config/{x}/data', () => {
  it('lists the sources with their columns, units and filter operators', async () => {
    const res = await t.call('GET', `${t.F}/report-info`);
    expect(res.status).toBe(200);
    const keys = (res.body.sources as { key: string }[]).map((s) => s.key);
    expect(keys).toEqual(['pairs', 'products', 'equipment', 'sampleResults', 'auditEntries']);
    const pairs = res.body.sources[0];
    expect(pairs.columns).toContainEqual({
      key: 'maco',
      label: 'MACO',
      type: 'number',
      unit: 'mg',
      operators: ['EqualTo', 'LessThan', 'LessThanEqualTo', 'GreaterThan', 'GreaterThanEqualTo'],
    });
  });

  it('gives one source’s config, and 404 for a source that does not exist', async () => {
    const res = await t.call('GET', `${t.F}/report-config/equipment/data`);
    expect(res.status).toBe(200);
    expect(res.body.config.key).toBe('equipment');
    expect(res.body.config.columns.find((c: { key: string }) => c.key === 'roomGrade')).toEqual({
      key: 'roomGrade',
      label: 'Room grade',
      type: 'enum',
      unit: null,
      options: ['A', 'B', 'C', 'D'],
      operators: ['EqualTo'],
    });
    // Issue 30: a result's own number and the product batch its run's cleaning followed.
    const results = await t.call('GET', `${t.F}/report-config/sampleResults/data`);
    const labels = (results.body.config.columns as { key: string; label: string }[]).map(
      (c) => `${c.key}: ${c.label}`,
    );
    expect(labels).toContain('batchNumber: Sample number');
    expect(labels).toContain('productBatch: Product batch');
    // Issue 30: options that are codes come with their words; the value sent stays the code.
    const sampleType = (results.body.config.columns as TestBody[]).find(
      (c) => c.key === 'sampleType',
    );
    expect(sampleType).toMatchObject({
      options: ['swab', 'rinse'],
      optionLabels: { swab: 'Swab', rinse: 'Rinse' },
    });
    const pairs = await t.call('GET', `${t.F}/report-config/pairs/data`);
    expect(pairs.body.config.description).not.toMatch(/GET|\//);
    const governing = (pairs.body.config.columns as TestBody[]).find((c) => c.key === 'governing');
    expect(governing?.optionLabels).toMatchObject({ health: 'Health-based', dose: 'Dose-based' });
    const missing = await t.call('GET', `${t.F}/report-config/nothing/data`);
    expect(missing.status).toBe(404);
    expect(missing.body.errName).toBe('NotFoundError');
  });
});

describe('saving a custom report (report-data, the record mechanism)', () => {
  it('names the property of an unknown column, operator or value', async () => {
    const res = await t.call('POST', `${t.F}/report-data`, {
      name: 'Bad',
      source: 'equipment',
      columns: [{ key: 'name' }, { key: 'colour' }],
      filters: [
        { column: 'name', operator: 'GreaterThan', value: 'M' },
        { column: 'surfaceArea', operator: 'LessThan', value: 'big' },
        { column: 'weight', operator: 'EqualTo', value: '1' },
        { column: 'roomGrade', operator: 'EqualTo', value: 'Z' },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.errName).toBe('DataValidationError');
    const properties = (res.body.errors as { property: string }[]).map((e) => e.property);
    expect(properties).toEqual([
      'columns[1].key',
      'filters[0].operator',
      'filters[1].value',
      'filters[2].column',
      'filters[3].value',
    ]);
    const none = await t.call('POST', `${t.F}/report-data`, {
      name: 'Empty',
      source: 'products',
      columns: [],
    });
    expect(none.status).toBe(422);
    expect(none.body.errors[0].property).toBe('columns');
    const operator = await t.call('POST', `${t.F}/report-data`, {
      name: 'Op',
      source: 'products',
      columns: [{ key: 'name' }],
      filters: [{ column: 'name', operator: 'Like', value: 'x' }],
    });
    expect(operator.status).toBe(422);
    expect(JSON.stringify(operator.body.errors)).toContain('operator');
  });

  it('reads, edits with a reason and version, refuses a stale edit, archives and keeps versions', async () => {
    const one = await t.call('GET', `${t.F}/report-data/${equipmentReport}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      name: 'Large equipment',
      source: 'equipment',
      columns: [{ key: 'name' }, { key: 'surfaceArea' }, { key: 'roomGrade' }],
      version: 1,
    });
    const id = await saveReport({
      name: 'To edit',
      source: 'products',
      columns: [{ key: 'name' }],
    });
    const edit = await t.call('POST', `${t.F}/report-data/${id}`, {
      columns: [{ key: 'name' }, { key: 'externalId' }],
      reason: 'Add the external id',
      version: 1,
    });
    expect(edit.status).toBe(200);
    expect(edit.body.result.version).toBe(2);
    // Changing the source keeps the columns checked against the new one.
    const wrong = await t.call('POST', `${t.F}/report-data/${id}`, {
      source: 'auditEntries',
      reason: 'Other source',
      version: 2,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].property).toBe('columns[0].key');
    const stale = await t.call('POST', `${t.F}/report-data/${id}`, {
      name: 'Stale',
      reason: 'Late',
      version: 1,
    });
    expect(stale.status).toBe(409);
    const archive = await t.call('PUT', `${t.F}/report-data/${id}/archive`, { reason: 'Unused' });
    expect(archive.status).toBe(200);
    const versions = await t.call('GET', `${t.F}/report-data/${id}/versions`);
    expect(versions.body.versions.length).toBeGreaterThanOrEqual(3);
    const audit = await t.server.db.query<{ action: string }>(
      `select action from audit_log where domain = 'CustomReport' and entity_id = $1 order by id`,
      [String(id)],
    );
    expect(audit.map((a) => a.action)).toEqual(['Create', 'Update', 'Archive']);
  });
});

describe('GET {id}/report-data/data', () => {
  it('pages by 10 by default with the total, filtered in SQL, in sqcm', async () => {
    const first = await t.call('GET', `${t.F}/${equipmentReport}/report-data/data`);
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(12);
    expect(first.body.perPage).toBe(10);
    expect(first.body.data).toHaveLength(10);
    expect(first.body.columns.map((c: { key: string }) => c.key)).toEqual([
      'name',
      'surfaceArea',
      'roomGrade',
    ]);
    expect(first.body.data[0]).toEqual({ name: 'E1', surfaceArea: 125000, roomGrade: null });
    expect(first.body.data[1]).toEqual({ name: 'E3', surfaceArea: 10000, roomGrade: null });
    const second = await t.call('GET', `${t.F}/${equipmentReport}/report-data/data?pageNumber=2`);
    expect(second.body.data.map((r: { name: string }) => r.name)).toEqual(['Tank 09', 'Tank 10']);
    const bad = await t.call('GET', `${t.F}/${equipmentReport}/report-data/data?perPage=0`);
    expect(bad.status).toBe(422);
  });

  it('takes filter values only as bound parameters', async () => {
    const hostile = "x' or '1'='1'; drop table equipment; --";
    const id = await saveReport({
      name: 'Hostile',
      source: 'equipment',
      columns: [{ key: 'name' }],
      filters: [{ column: 'name', operator: 'Contains', value: hostile }],
    });
    const res = await t.call('GET', `${t.F}/${id}/report-data/data`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(0);
    const grade = await saveReport({
      name: 'Grade C tanks',
      source: 'equipment',
      columns: [{ key: 'name' }],
      filters: [
        { column: 'roomGrade', operator: 'EqualTo', value: 'C' },
        { column: 'name', operator: 'Contains', value: 'tank 0' },
      ],
    });
    const tanks = await t.call('GET', `${t.F}/${grade}/report-data/data`);
    expect(tanks.body.data.map((r: { name: string }) => r.name)).toEqual([
      'Tank 02',
      'Tank 04',
      'Tank 06',
      'Tank 08',
    ]);
  });

  it('filters the MAC matrix pairs in process with the engine’s numbers', async () => {
    const all = await t.server.request<TMacPairsPage>('GET', `${t.F}/mac-matrix/pairs`, {
      token: t.token,
    });
    const a = all.body.data.find((p) => p.previous === 'A' && p.next === 'B')!;
    const id = await saveReport({
      name: 'After A',
      source: 'pairs',
      columns: [{ key: 'previous' }, { key: 'next' }, { key: 'maco' }, { key: 'sharedEquipment' }],
      filters: [
        { column: 'previous', operator: 'EqualTo', value: 'a' },
        { column: 'maco', operator: 'LessThanEqualTo', value: String(a.maco!.value) },
      ],
    });
    const res = await t.call('GET', `${t.F}/${id}/report-data/data`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(1);
    expect(res.body.data).toEqual([
      {
        previous: 'A',
        next: 'B',
        maco: a.maco!.value,
        sharedEquipment: a.sharedEquipment.join(', '),
      },
    ]);
    const flagged = await saveReport({
      name: 'Flagged',
      source: 'pairs',
      columns: [{ key: 'previous' }, { key: 'next' }],
      filters: [{ column: 'flags', operator: 'Contains', value: 'TRADITIONAL' }],
    });
    const failing = all.body.data
      .filter((p) => p.flags.length > 0)
      .map((p) => `${p.previous}>${p.next}`);
    const got = await t.call('GET', `${t.F}/${flagged}/report-data/data`);
    expect(
      got.body.data.map((r: { previous: string; next: string }) => `${r.previous}>${r.next}`),
    ).toEqual(failing);
  });

  it('reads the audit entries and sample results of the facility', async () => {
    const audit = await saveReport({
      name: 'Report changes',
      source: 'auditEntries',
      columns: [{ key: 'domain' }, { key: 'action' }, { key: 'at' }],
      filters: [
        { column: 'domain', operator: 'EqualTo', value: 'CustomReport' },
        { column: 'at', operator: 'GreaterThanEqualTo', value: '2020-01-01' },
      ],
    });
    const res = await t.call('GET', `${t.F}/${audit}/report-data/data?perPage=100`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBeGreaterThan(3);
    for (const row of res.body.data) expect(row.domain).toBe('CustomReport');
    expect(res.body.data[0].action).toBe('Create');
    expect(res.body.data[0].at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The workbook says it in words (issue 30): the domain and action by their labels, the
    // moment as a date cell, never an ISO string.
    const xlsx = await download(`${t.F}/${audit}/report-data/download`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.buffer as unknown as ArrayBuffer);
    const first = book.getWorksheet('Report')!.getRow(2).values as unknown[];
    expect(first[1]).toBe('Custom report');
    expect(first[2]).toBe('Create');
    expect(first[3]).toBeInstanceOf(Date);
    const results = await saveReport({
      name: 'Failed results',
      source: 'sampleResults',
      columns: [{ key: 'study' }, { key: 'productBatch' }, { key: 'percentOfLimit' }],
      filters: [{ column: 'passed', operator: 'EqualTo', value: 'false' }],
    });
    const none = await t.call('GET', `${t.F}/${results}/report-data/data`);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ data: [], total: 0, pageNumber: 1, perPage: 10 });
  });
  it('names the record an audit entry is about, never its id, and refuses a filter on it', async () => {
    const named = await saveReport({
      name: 'Report records',
      source: 'auditEntries',
      columns: [{ key: 'domain' }, { key: 'entityId' }],
      filters: [{ column: 'domain', operator: 'EqualTo', value: 'CustomReport' }],
    });
    const res = await t.call('GET', `${t.F}/${named}/report-data/data?perPage=100`);
    expect(res.status).toBe(200);
    expect(res.body.columns[1]).toMatchObject({ key: 'entityId', label: 'Record', operators: [] });
    const records = (res.body.data as { entityId: string }[]).map((r) => r.entityId);
    expect(records).toContain('Custom report ‘Report records’');
    for (const record of records) expect(record).not.toMatch(/\d+$/);
    const refused = await t.call('POST', `${t.F}/report-data`, {
      name: 'By record',
      source: 'auditEntries',
      columns: [{ key: 'entityId' }],
      filters: [{ column: 'entityId', operator: 'EqualTo', value: '12' }],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { property: 'filters[0].column', constraints: { custom: 'Record cannot be filtered on' } },
    ]);
  });
});

describe('GET {id}/report-data/download', () => {
  it('is an xlsx named by the type and a timestamp, with every matching row, and is audited', async () => {
    const res = await download(`${t.F}/${equipmentReport}/report-data/download`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(XLSX);
    const disposition = res.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/filename="equipment \d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}\.xlsx"/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.buffer as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Report')!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Name', 'Surface area (cm²)', 'Room grade']);
    expect(sheet.rowCount).toBe(13);
    expect(sheet.getRow(2).values).toEqual([undefined, 'E1', 125000]);
    const about = workbook.getWorksheet('About')!;
    expect(about.getRow(2).values).toEqual([undefined, 'Report', 'Large equipment']);
    expect(about.getRow(4).values).toEqual([
      undefined,
      'Filter',
      'Surface area greater than or equal to 10000',
    ]);
    // Issue 30: words on every sheet, no code, ISO time or JSON.
    for (const each of [sheet, about])
      each.eachRow((r) =>
        (r.values as unknown[]).forEach((cell) => {
          if (typeof cell === 'string') expect(forbiddenTextReport(each.name, cell)).toBe('');
        }),
      );
    const [row] = await t.server.db.query<{ new_values: { fileName: string; rows: number } }>(
      `select new_values from audit_log where domain = 'CustomReport' and action = 'Export' order by id desc limit 1`,
    );
    expect(row?.new_values.rows).toBe(12);
    expect(disposition).toContain(row!.new_values.fileName);
  });
});
