import { agentCriterionLabel } from '#core/labels/enum-labels.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordCreator } from '#server/test/create-record.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { auditExportLimits } from '../audit/audit-log.routes.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';
import { excelNumberFormat, formatQuantity } from '#core/units/format-number.ts';
import { reportKit } from '#server/test/report-test-kit.ts';
import { runReport } from './reports.service.ts';

/*
 * The report kinds of issue 13 beyond the first two, each read back (PDF text, xlsx cells)
 * against the data it was made from: the live call that shows the same numbers on screen.
 * The facility is the MAC test facility (mac-test-data.ts), whose limits are known by hand.
 */
const t = useFacilityTestServer();
let facility: MacFacility;
beforeAll(async () => {
  facility = await buildMacFacility(t.server, t.facilityId);
});
const { download, generate, pdfOf, xlsxOf } = reportKit(t, () => facility.F);
const pairText = (pair: string[] | null, arrow = ' -> ') => (pair ? pair.join(arrow) : null);

async function userWith(permissions: Record<string, string[]>) {
  const user = await buildUser(t.server.db, {
    facilityIds: [facility.facilityId],
    permissions: permissionsWith(permissions),
  });
  return t.server.login(user.username, user.password);
}

describe('An equipment limits report', () => {
  it('prints and tabulates each item’s lowest limits as GET limits/equipment gives them', async () => {
    const report = await generate({ kind: 'equipment-limits' });
    expect(report).toMatchObject({ title: 'Equipment limits', error: null });
    const live = (await t.call('GET', `${facility.F}/limits/equipment`)).body;
    expect(live.equipment.map((e: TestBody) => e.id).sort()).toEqual(['E1', 'E2', 'E3']);

    const pdf = await pdfOf(`/reports/equipment-limits/${report.id}/pdf`);
    // A narrow column wraps a unit after its slash.
    const text = pdf.text.replaceAll('/ ', '/');
    expect(text).toContain(`${report.number} v1 · Being Built`);
    expect(text).toContain('3 equipment items in at least one pair');
    for (const e of live.equipment as TestBody[]) {
      expect(text).toContain(`${e.id} ${e.pairCount} ${formatQuantity(e.maco.value, 'mg')}`);
      expect(text).toContain(formatQuantity(e.sal.value, 'mg/sqcm'));
      expect(text).toContain(pairText(e.maco.pair));
    }
    // B -> A governs Line 1: 250 mg over E1 and E2's 130,000 sqcm.
    expect(text).toContain('E1 2 250 mg B -> A 0.001923 mg/cm²');

    const { sheets, sha256 } = await xlsxOf(`/reports/equipment-limits/${report.id}/xlsx`);
    expect(sha256).toBe(report.files.find((f: TestBody) => f.format === 'xlsx').sha256);
    const [header, ...rows] = sheets.get('Equipment limits')!;
    expect(header!.slice(0, 4)).toEqual([
      'Equipment',
      'Pairs',
      'Lowest MACO (mg)',
      'Lowest MACO set by',
    ]);
    expect(rows).toEqual(
      (live.equipment as TestBody[]).map((e) => {
        const cells = [e.id, e.pairCount];
        for (const key of ['maco', 'sal', 'swab', 'rinse']) {
          cells.push(e[key].value ?? undefined, pairText(e[key].pair, ' → ') ?? undefined);
        }
        // exceljs reads an empty trailing cell as absent.
        while (cells.length > 0 && cells[cells.length - 1] === undefined) cells.pop();
        return cells;
      }),
    );
  });
});

describe('The sampling sheet and the area calculation', () => {
  let e1: number;
  let e3: number;
  let sal: number;
  beforeAll(async () => {
    const items = (await t.call('GET', `${facility.F}/equipments?pageLimit=50`)).body.data;
    e1 = items.find((e: TestBody) => e.name === 'E1').id;
    e3 = items.find((e: TestBody) => e.name === 'E3').id;
    const L = `${facility.F}/equipments/${e1}/sampling-locations`;
    const locations = await t.call('POST', L, {
      data: [
        { name: 'Outlet', sampleType: 'swab', swabArea: { value: 25, unit: 'sqcm' } },
        { name: 'Spray ball', sampleType: 'rinse' },
      ],
    });
    expect(locations.status).toBe(200);
    const [outlet, spray] = locations.body.result as TestBody[];
    const swab = await t.call('POST', `${L}/${outlet!.id}/samples`, {
      name: 'S-1',
      sampleType: 'swab',
      analyticalTest: 'TOC',
      batchNumber: 'B-001',
    });
    expect(swab.status).toBe(200);
    const rinse = await t.call('POST', `${L}/${spray!.id}/samples`, {
      name: 'R-1',
      sampleType: 'rinse',
      rinseVolume: { value: 10, unit: 'L' },
    });
    expect(rinse.status).toBe(200);
    const live = (await t.call('GET', `${facility.F}/limits/equipment`)).body;
    sal = live.equipment.find((e: TestBody) => e.id === 'E1').sal.value;
  });

  it('lists the item’s locations and samples with their swab and rinse limits', async () => {
    const { text, res } = await pdfOf(`/equipment/${e1}/pdf`);
    expect(res.headers.get('content-disposition')).toContain('filename="sampling-sheet.pdf"');
    expect(text).toContain('Sampling sheet · E1');
    expect(text).toContain('Preview v1 · Being Built');
    expect(text).toContain('DRAFT');
    expect(text).toContain(`Lowest SAL: ${formatQuantity(sal, 'mg/sqcm')}, set by B -> A`);
    // Swab: SAL × the location's 25 sqcm (recovery 100 %); rinse: SAL × E1's 125,000 sqcm over
    // 10 L (the item rinsed on its own).
    expect(text).toContain('Outlet · Swab · swab area 25 cm²');
    expect(text).toContain(
      `S-1 Swab TOC B-001 swab area 25 cm² ${formatQuantity(sal * 25, 'mg/swab')}`,
    );
    expect(text).toContain(
      `R-1 Rinse — — rinse volume 10 L ${formatQuantity((sal * 125_000) / 10_000, 'mg/ml')}`,
    );
    // An item with no locations says so.
    expect((await pdfOf(`/equipment/${e3}/pdf`)).text).toContain(
      'The item has no sampling locations.',
    );
  });

  it('calculates the item’s share of its production’s shared area', async () => {
    const { text } = await pdfOf(`/equipments/${e1}/area-calculation-pdf/${facility.line1}`);
    expect(text).toContain('Area calculation · E1 in Line 1');
    expect(text).toContain('Shared product-contact area of the production: 130,000 cm²');
    expect(text).toContain('E1: 125,000 cm², 96.15 % of it');
    expect(text).toContain('E2 5,000 cm² 5,000 cm² 3.846 %');
    expect(text).toContain('Swab areas of its sampling locations: 25 cm², 0.02 % of the item');
    // E3 is not used in Line 1; an unknown item is not found.
    const other = await download(`/equipments/${e3}/area-calculation-pdf/${facility.line1}`);
    expect(other.status).toBe(404);
    expect((await other.json()).errName).toBe('NotFoundError');
    expect((await download('/equipment/999999/pdf')).status).toBe(404);
  });

  it('needs CEReport GeneratePDF or Equipment Get', async () => {
    const reporter = await userWith({ CEReport: ['GeneratePDF'] });
    expect((await download(`/equipment/${e1}/pdf`, reporter)).status).toBe(200);
    const viewer = await userWith({ Equipment: ['Get'] });
    expect(
      (await download(`/equipments/${e1}/area-calculation-pdf/${facility.line1}`, viewer)).status,
    ).toBe(200);
    const stranger = await userWith({ Product: ['Get'] });
    expect((await download(`/equipment/${e1}/pdf`, stranger)).status).toBe(403);
    expect(
      (await download(`/equipments/${e1}/area-calculation-pdf/${facility.line1}`, stranger)).status,
    ).toBe(403);
  });
});

describe('A cleaning agent limits report', () => {
  it('holds each agent’s limits in each next product as GET limits/cleaning-agents does', async () => {
    const create = recordCreator(t.server, t.token, facility.F);
    await create('cleaning_agents', { name: 'Alkaline', ld50: { value: 2000, unit: 'mg/kg' } });
    await create('cleaning_agents', { name: 'Acid', pde: { value: 5, unit: 'mg' } });
    const report = await generate({ kind: 'cleaning-agent-limits' });
    expect(report).toMatchObject({ title: 'Cleaning agent limits', error: null });
    const live = (await t.call('GET', `${facility.F}/limits/cleaning-agents`)).body;
    expect(live.limits.length).toBeGreaterThan(0);

    const text = (await pdfOf(`/reports/cleaning-agent-limits/${report.id}/pdf`)).text.replaceAll(
      '/ ',
      '/',
    );
    expect(text).toContain(
      `2 cleaning agents · ${live.limits.length} agent and next-product limits`,
    );
    for (const l of live.limits as TestBody[]) {
      expect(text).toContain(`${l.agent} ${l.next} `);
      if (l.maco !== null) expect(text).toContain(formatQuantity(l.maco, 'mg'));
      if (l.sal !== null) expect(text).toContain(formatQuantity(l.sal, 'mg/sqcm'));
    }

    const { sheets } = await xlsxOf(`/reports/cleaning-agent-limits/${report.id}/xlsx`);
    const [header, ...rows] = sheets.get('Cleaning agent limits')!;
    expect(header).toEqual([
      'Cleaning agent',
      'Next product',
      'Health-based MACO (mg)',
      'LD50-based MACO (mg)',
      'General limit (ARL) MACO (mg)',
      'Agent ppm ceiling MACO (mg)',
      'MACO (mg)',
      'Governing criterion',
      'Shared area (cm²)',
      'SAL (mg/cm²)',
    ]);
    const keys = [
      'agent',
      'next',
      'health',
      'ld50',
      'arl',
      'ceiling',
      'maco',
      'governing',
      'area',
      'sal',
    ];
    // The governing criterion in words ('Health-based', 'Agent ppm ceiling'), not its key.
    expect(rows.map((r) => keys.map((_, i) => r[i] ?? null))).toEqual(
      (live.limits as TestBody[]).map((l) =>
        keys.map((k) =>
          k === 'governing' && l[k] !== null ? agentCriterionLabel(l[k] as string) : l[k],
        ),
      ),
    );
  });
});

describe('A master data snapshot report', () => {
  it('is the master workbook as of its moment, and a summary of its sections', async () => {
    const report = await generate({ kind: 'master-data-snapshot' });
    expect(report).toMatchObject({ title: 'Master data snapshot', error: null });
    const master = await xlsxOf('/master');
    const snapshot = await xlsxOf(`/reports/master-data-snapshot/${report.id}/xlsx`);
    expect([...snapshot.sheets.keys()]).toEqual([...master.sheets.keys()]);
    for (const [name, rows] of master.sheets) expect(snapshot.sheets.get(name), name).toEqual(rows);
    expect(snapshot.sheets.get('Products')!.map((r) => r[0])).toEqual(['Name', 'A', 'B', 'C', 'D']);

    const { text } = await pdfOf(`/reports/master-data-snapshot/${report.id}/pdf`);
    for (const section of ['Products', 'Equipment', 'Productions', 'Actives']) {
      const count = master.sheets.get(section)!.length - 1;
      expect(text).toContain(`${section} ${count}`);
      expect(text).toContain(`${section} (${count})`);
    }
    for (const name of ['Line 1', 'Line 2', 'Alpha', 'Beta', 'Gamma', 'E1', 'E2', 'E3']) {
      expect(text).toContain(name);
    }

    // A product added after the report leaves it as it was: read again as of its moment, the
    // same data.
    await recordCreator(
      t.server,
      t.token,
      facility.F,
    )('products', {
      name: 'Late product',
      maxDailyDose: { value: 1, unit: 'mg' },
      minBatchSize: { value: 1, unit: 'kg' },
      actives: [],
    });
    const regenerated = await t.call('GET', `${facility.F}/reports/${report.id}/regenerate`);
    expect(regenerated.body.same).toBe(true);
  });
});

describe('A production limits report’s xlsx', () => {
  it('is the production’s MAC matrix workbook, named Production Data.xlsx', async () => {
    const report = await generate({ kind: 'production-limits', productionId: facility.line1 });
    const stored = await xlsxOf(`/reports/production-limits/${report.id}/xlsx`);
    expect(stored.res.headers.get('content-disposition')).toContain(
      'filename="Production Data.xlsx"',
    );
    expect(stored.sha256).toBe(report.files.find((f: TestBody) => f.format === 'xlsx').sha256);
    const live = await xlsxOf(`/mac-matrix/export?productionId=${facility.line1}`);
    expect(stored.sheets.get('MAC Matrix')).toEqual(live.sheets.get('MAC Matrix'));
    expect(stored.sheets.get('Pairs')).toEqual(live.sheets.get('Pairs'));
    expect(stored.sheets.get('MAC Matrix')!.map((r) => r[0])).toEqual([
      expect.anything(),
      'A',
      'B',
    ]);
  });

  it('of every production holds each one’s governing MACO and lowest limits as GET limits/productions gives them', async () => {
    const every = await generate({ kind: 'production-limits' });
    const [named] = await t.server.db.query<{ name: string }>(
      'select name from facilities where id = $1',
      [facility.facilityId],
    );
    expect(every.title).toBe(`Production limits · ${named!.name}`);
    expect(every.files.map((f: TestBody) => f.format).sort()).toEqual(['pdf', 'xlsx']);
    const stored = await xlsxOf(`/reports/production-limits/${every.id}/xlsx`);
    expect(stored.res.headers.get('content-disposition')).toContain(
      'filename="Production Data.xlsx"',
    );
    expect(stored.sha256).toBe(every.files.find((f: TestBody) => f.format === 'xlsx').sha256);

    const live = (await t.call('GET', `${facility.F}/limits/productions`)).body;
    const keys = ['maco', 'sal', 'swab', 'rinse'];
    const [header, ...rows] = stored.sheets.get('Production limits')!;
    expect(header).toEqual([
      'Production',
      'Products',
      'Equipment',
      'Pairs',
      'Governing MACO (mg)',
      'Governing MACO set by',
      'Lowest SAL (mg/cm²)',
      'Lowest SAL set by',
      'Lowest swab limit (mg/swab)',
      'Lowest swab limit set by',
      'Lowest rinse limit (mg/ml)',
      'Lowest rinse limit set by',
    ]);
    expect(rows).toEqual(
      (live.productions as TestBody[]).map((p) => {
        const cells = [p.name, p.productCount, p.equipmentCount, p.pairCount];
        for (const key of keys) {
          cells.push(p[key].value ?? undefined, pairText(p[key].pair, ' → ') ?? undefined);
        }
        // exceljs reads an empty trailing cell as absent.
        while (cells.length > 0 && cells[cells.length - 1] === undefined) cells.pop();
        return cells;
      }),
    );
    // B → A governs Line 1: 250 mg, over E1 and E2's 130,000 cm², kept whole in its cell and
    // shown as the screen rounds it.
    const line1 = rows.findIndex((r) => r[0] === 'Line 1');
    expect(rows[line1]!.slice(4, 8)).toEqual([250, 'B → A', 250 / 130_000, 'B → A']);
    const formats = stored.formats.get('Production limits')!;
    rows.forEach((row, i) =>
      row.forEach((cell, column) => {
        if (column >= 4 && typeof cell === 'number')
          expect(formats[i + 1]![column]).toBe(excelNumberFormat(cell));
      }),
    );
    expect(formats[line1 + 1]![6]).toBe('#,##0.000000');

    const { text } = await pdfOf(`/reports/production-limits/${every.id}/pdf`);
    expect(text).toContain('Governing MACO and lowest limits of each production');
    expect(text).toContain('Line 1 2 2 2 250 mg B -> A');
  });
});

describe('An audit-log report', () => {
  const filters = { domains: ['Equipment'], actions: ['Create'] };

  it('is not there before one is generated', async () => {
    const res = await t.call(
      'GET',
      `/api/v2/audit_logs/last_report?currentFacilityId=${facility.facilityId}`,
    );
    expect(res.status).toBe(404);
    expect(res.body.errName).toBe('NotFoundError');
  });

  it('prints the rows its filters select, as of its moment, and is the last report', async () => {
    const report = await generate({ kind: 'audit-log', ...filters });
    expect(report).toMatchObject({ title: 'Audit log', error: null, parameters: filters });
    const live = await t.call(
      'GET',
      `/api/v2/audit_logs?domains=Equipment&actions=Create&facilityId=${facility.facilityId}&pageLimit=200`,
    );
    const rows = live.body.data as TestBody[];
    expect(rows.length).toBe(3);
    const { text } = await pdfOf(`/reports/audit-log/${report.id}/pdf`);
    expect(text).toContain('Filters: Domains: Equipment; Actions: Create · 3 rows, newest first');
    for (const row of rows) {
      const name = live.body.names[`equipment:${row.entityId}`] as string;
      expect(text).toContain(`Equipment ‘${name}’ Create`);
    }
    expect(text).not.toContain('Product ‘');

    // Rows written after it do not move it.
    await t.call('POST', `${facility.F}/equipments`, {
      name: 'After the report',
      surfaceArea: { value: 1, unit: 'sqm' },
    });
    expect((await t.call('GET', `${facility.F}/reports/${report.id}/regenerate`)).body.same).toBe(
      true,
    );

    const last = await pdfOf(
      `/audit_logs/last_report?currentFacilityId=${facility.facilityId}`,
      t.token,
      '/api/v2',
    );
    expect(last.text).toContain(`${report.number} v1 · Being Built`);
    expect(last.text).toContain('3 rows, newest first');
    expect((await pdfOf('/audit_logs/last_report', t.token, '/api/v2')).text).toContain(
      report.number,
    );
  });

  it('needs AuditLog Get besides the report permissions', async () => {
    const [report] = await t.server.db.query<{ id: number }>(
      `select id from reports where kind = 'audit-log' and facility_id = $1`,
      [facility.facilityId],
    );
    const reporter = await userWith({ ReportDocument: ['Generate', 'Get'] });
    const refused = await t.call(
      'POST',
      `${facility.F}/reports/generate_report`,
      { kind: 'audit-log' },
      reporter,
    );
    expect(refused.status).toBe(403);
    expect((await download(`/reports/audit-log/${report!.id}/pdf`, reporter)).status).toBe(403);
    const lastReport = await fetch(`${t.server.url}/api/v2/audit_logs/last_report`, {
      headers: { token: reporter },
    });
    expect(lastReport.status).toBe(403);
    const auditor = await userWith({ ReportDocument: ['Get'], AuditLog: ['Get'] });
    expect((await download(`/reports/audit-log/${report!.id}/pdf`, auditor)).status).toBe(200);
  });

  it('refuses filters that select more rows than one report holds, and bad filters', async () => {
    const before = await t.server.db.query('select id from reports');
    const max = auditExportLimits.maxRows;
    auditExportLimits.maxRows = 1;
    try {
      const res = await t.call('POST', `${facility.F}/reports/generate_report`, {
        kind: 'audit-log',
        ...filters,
      });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ errName: 'DataValidationError' });
      expect(res.body.errors[0].property).toBe('endDate');
    } finally {
      auditExportLimits.maxRows = max;
    }
    for (const body of [
      { kind: 'audit-log', startDate: 'yesterday' },
      { kind: 'audit-log', facilityId: 1 },
      { kind: 'audit-log', userIds: ['x'] },
      { kind: 'audit-log', startDate: '2026-02-01', endDate: '2026-01-01' },
    ]) {
      const res = await t.call('POST', `${facility.F}/reports/generate_report`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect(await t.server.db.query('select id from reports')).toEqual(before);
  });
});

describe('A report whose job failed and then succeeded on retry', () => {
  it('no longer carries the failed attempt’s error', async () => {
    const [user] = await t.server.db.query<{ id: number }>(
      `select generated_by as id from reports where facility_id = $1 limit 1`,
      [facility.facilityId],
    );
    // A report whose first attempt failed (its job lost its connection) and left its error.
    const [row] = await t.server.db.query<{ id: number }>(
      `insert into reports (facility_id, seq, number, kind, title, parameters, generated_by,
                            generated_by_name, updated_by, error)
       values ($1, 900, 'RPT-0900', 'worst-case-ranking', 'Worst case ranking',
               '{"kind":"worst-case-ranking"}', $2, 'Retry test', $2, 'Connection terminated')
       returning id`,
      [facility.facilityId, user!.id],
    );
    const failed = (await t.call('GET', `${facility.F}/reports/${row!.id}`)).body.report;
    expect(failed).toMatchObject({ error: 'Connection terminated', completedAt: null });
    // pg-boss runs the job again: it succeeds.
    await runReport(t.server.db, row!.id);
    const done = (await t.call('GET', `${facility.F}/reports/${row!.id}`)).body.report;
    expect(done.error).toBeNull();
    expect(done.completedAt).not.toBeNull();
    expect(done.dataHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
