import ExcelJS from 'exceljs';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { rankingChart } from '#core/charts/ranking-chart.ts';
import { REPORT_KINDS } from '#core/schemas/reports.schemas.ts';
import { recordCreator } from '#server/test/create-record.ts';
import { commitBetweenReads } from '#server/test/commit-between-reads.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { adminEditor, putInForce } from '#server/test/policy-in-force.ts';
import { buildMacFacility, type MacFacility } from '#server/test/mac-test-data.ts';
import { reportKit } from '#server/test/report-test-kit.ts';
import { extractText, getDocumentProxy } from 'unpdf';
import { renderPdfDocument, streamPdfDocument } from '#server/util/pdf/render-pdf.ts';
import { facilityDateTimeSettings } from '../audit/audit-log.service.ts';
import { controlledPdfDefinition } from './controlled-pdf.ts';
import { REPORT_KIND_DEFS } from './report-kinds.ts';
import { getReport } from './reports.service.ts';

/*
 * Reports as controlled documents, read back: the PDF's header, footer, watermark, signature
 * page and last page against the stored record, its numbers against the data it was made from.
 * The facility is the MAC test facility (mac-test-data.ts), whose limits are known by hand.
 */
const t = useFacilityTestServer();
let facility: MacFacility;
beforeAll(async () => {
  facility = await buildMacFacility(t.server, t.facilityId);
});

const { sha, download, generate, pdfOf } = reportKit(t, () => facility.F);

describe('A worst-case ranking report', () => {
  let report: TestBody;
  let ranking: TestBody;
  let facilityName: string;

  beforeAll(async () => {
    // Two products outside the productions whose actives have every scale: they are scored.
    const create = recordCreator(t.server, t.token, facility.F);
    for (const [name, solubility, cleanability] of [
      ['Scored X', 'Practically insoluble', 'Difficult'],
      ['Scored Y', 'Freely soluble', 'Easy'],
    ] as const) {
      const active = await create('apis', {
        name: `${name} API`,
        solubility,
        cleanability,
        therapeuticDose: { value: 5, unit: 'mg' },
        pde: { value: 50, unit: 'ug' },
      });
      await create('products', {
        name,
        maxDailyDose: { value: 100, unit: 'mg' },
        minBatchSize: { value: 50, unit: 'kg' },
        actives: [{ activeId: active, amount: { value: 10, unit: 'mg' } }],
      });
    }
    report = await generate({ kind: 'worst-case-ranking' });
    ranking = (await t.call('GET', `${facility.F}/limits/worst-case-ranking`)).body;
    const [row] = await t.server.db.query<{ name: string }>(
      'select name from facilities where id = $1',
      [facility.facilityId],
    );
    facilityName = row!.name;
  });

  it('is stored by its job with its data hash, snapshot and files, version 1 Being Built', async () => {
    expect(report.error).toBeNull();
    expect(report.progress).toMatchObject({ state: 'done' });
    expect(report).toMatchObject({
      number: 'RPT-0001',
      kind: 'worst-case-ranking',
      title: 'Worst case ranking',
      status: 'BeingBuilt',
      versionNumber: 1,
      parameters: { kind: 'worst-case-ranking' },
    });
    expect(report.dataHash).toMatch(/^[0-9a-f]{64}$/);
    // The snapshot in force: the latest stored by an approval (none for a new facility).
    const [snapshot] = await t.server.db.query<{ id: number | null }>(
      'select max(id) as id from limits_snapshots where facility_id = $1',
      [facility.facilityId],
    );
    expect(report.limitsSnapshotId).toBe(snapshot!.id);
    // A snapshot by the approval it was taken at, never its id (issue 30).
    expect(report.limitsSnapshotName).toEqual(
      snapshot!.id === null
        ? null
        : expect.stringMatching(/^Limits approved with .+ \(version \d+\)$/),
    );
    expect(report.files.map((f: TestBody) => f.format).sort()).toEqual(['pdf', 'xlsx']);
  });

  it('completes in the one transaction that ends its job, so it never reads as complete and running', async () => {
    // now() is the transaction's start: equal times mean one transaction wrote both.
    const [row] = await t.server.db.query<{ together: boolean; state: string }>(
      `select r.completed_at = j.finished_at as together, j.state
         from reports r join job_runs j on j.id = r.job_id where r.id = $1`,
      [report.id],
    );
    expect(row).toEqual({ together: true, state: 'done' });
    const read = (await t.call('GET', `${facility.F}/reports/${report.id}`)).body.report;
    expect(read.completedAt).not.toBeNull();
    expect(read.progress).toMatchObject({
      state: 'done',
      stage: 'Done',
      done: read.progress.total,
    });
  });

  it('prints as a draft controlled document whose content is the ranking', async () => {
    const { text, pages, sha256 } = await pdfOf(`/reports/worst-case-ranking/${report.id}/pdf`);
    // The first rendition is the one the job stored.
    expect(sha256).toBe(report.files.find((f: TestBody) => f.format === 'pdf').sha256);
    expect(text).toContain(`${facilityName} · Worst case ranking`);
    expect(text).toContain('RPT-0001 v1 · Being Built');
    expect(text).toContain('DRAFT');
    expect(text).toContain(`Page 1 of ${pages}`);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    expect(text).toContain(`Data ${String(report.dataHash).slice(0, 12)}`);
    expect(text).toContain(`Generated by `);
    // The chart (ECharts, drawn as SVG) of the scored products, then each product with its rank
    // and score, as the ranking gives them.
    const scored = (ranking.products as TestBody[]).filter((p) => p.score !== null);
    expect(scored.length).toBeGreaterThan(0);
    expect(text).toContain(`Score of the ${scored.length} highest-ranked products`);
    // The chart holds the bars of the option the Worst case ranking screen draws.
    const chart = rankingChart(ranking.products as { id: string; score: number | null }[]);
    const [from, to] = [text.indexOf(chart.title), text.indexOf('Ranking Rank')];
    expect(to).toBeGreaterThan(from);
    const drawn = text.slice(from, to);
    const [series] = chart.option.series as { data: { name: string; value: number }[] }[];
    expect(series!.data).toHaveLength(scored.length);
    for (const bar of series!.data) {
      expect(drawn).toContain(bar.name);
      expect(drawn).toContain(String(bar.value));
    }
    for (const p of ranking.products as TestBody[]) {
      expect(text).toContain(`${p.rank} ${p.id}`);
      if (p.score !== null) expect(text).toContain(String(p.score));
    }
    // The last page: the full hashes, the snapshot and the parameters.
    expect(text).toContain(report.dataHash);
    expect(text).toContain(report.files.find((f: TestBody) => f.format === 'xlsx').sha256);
    expect(text).toContain(`Limits snapshot ${report.limitsSnapshotId ?? 'none'}`);
    expect(text).toContain('Parameters Kind: worst-case-ranking');
    expect(text).toContain('This version has no signatures yet.');
  });

  it('gives the xlsx as generated, with the same ranking', async () => {
    const res = await download(`/reports/worst-case-ranking/${report.id}/xlsx`);
    expect(res.status).toBe(200);
    const bytes = await res.arrayBuffer();
    expect(sha(bytes)).toBe(report.files.find((f: TestBody) => f.format === 'xlsx').sha256);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes);
    const rows: unknown[][] = [];
    book.getWorksheet('Ranking')!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]!.slice(0, 2)).toEqual(['Rank', 'Product']);
    const products = ranking.products as TestBody[];
    expect(rows.slice(1).map((r) => [r[0], r[1]])).toEqual(products.map((p) => [p.rank, p.id]));
    const scoreColumn = (rows[0] as string[]).indexOf('Score (points)');
    expect(rows.slice(1).map((r) => r[scoreColumn] ?? null)).toEqual(products.map((p) => p.score));
  });

  it('regenerated as of its date gives the same data hash; compare with today lists the change', async () => {
    // A PDE lowered after the report (a direct edit) moves C's lowest MACO, not the report.
    const gamma = (await t.call('GET', `${facility.F}/apis?search=Gamma&pageLimit=100`)).body
      .data[0] as TestBody;
    const edited = await t.call('POST', `${facility.F}/apis/${gamma.id}`, {
      pde: { value: 0.1, unit: 'ug' },
      reason: 'Toxicology update',
      version: gamma.version,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const res = await t.call('GET', `${facility.F}/reports/${report.id}/regenerate`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      dataHash: report.dataHash,
      storedDataHash: report.dataHash,
      limitsSnapshotId: report.limitsSnapshotId,
      same: true,
    });
    const compared = await t.call('GET', `${facility.F}/reports/${report.id}/compare`);
    expect(compared.status, JSON.stringify(compared.body)).toBe(200);
    expect(compared.body).toMatchObject({
      reportId: report.id,
      asOf: report.asOf,
      storedDataHash: report.dataHash,
      same: false,
      mode: 'rows',
    });
    const now = (await t.call('GET', `${facility.F}/limits/worst-case-ranking`)).body;
    const maco = (data: TestBody) =>
      (data.products as TestBody[]).find((p) => p.id === 'C')!.lowestMaco as number;
    expect(maco(now)).toBeLessThan(maco(ranking));
    expect(compared.body.rows).toContainEqual(
      expect.objectContaining({
        key: 'products[id=C]',
        change: 'changed',
        fields: expect.arrayContaining([
          { field: 'lowestMaco', old: maco(ranking), new: maco(now) },
        ]),
      }),
    );
    // The edit behind it, made directly (no change assessment).
    expect(compared.body.edits).toContainEqual(
      expect.objectContaining({
        entityName: 'Gamma',
        reason: 'Toxicology update',
        changeAssessment: null,
      }),
    );
    expect(compared.body.editCount).toBeGreaterThanOrEqual(1);
  });

  it('once approved prints its signatures and no DRAFT, on both report paths', async () => {
    await putInForce(t.server, facility.F, adminEditor(t.token), 'ReportDocument', report.id);
    const approved = (await t.call('GET', `${facility.F}/reports/${report.id}`)).body.report;
    expect(approved.status).toBe('Approved');
    const signatures = (
      await t.call(
        'GET',
        `${facility.F}/signatures?documentType=ReportDocument&documentId=${report.id}`,
      )
    ).body.signatures as TestBody[];
    expect(signatures.map((s) => s.action)).toEqual(['Submit', 'Approve']);
    const { text, pages } = await pdfOf(`/reportDocument/worst-case-ranking/pdf/${report.id}`);
    expect(text).not.toContain('DRAFT');
    expect(text).toContain('RPT-0001 v1 · Active');
    expect(text).toContain(`Page 1 of ${pages}`);
    for (const s of signatures) {
      expect(text).toContain(s.printedName);
      expect(text).toContain(s.meaning);
    }
    expect(text).toContain('Submitter');
    expect(text).toContain('Approver');
    expect(text).toContain(report.dataHash);
    // The approved rendition is stored too: the same file again.
    const again = await pdfOf(`/reports/worst-case-ranking/${report.id}/pdf`);
    const [count] = await t.server.db.query<{ n: number }>(
      `select count(*)::int as n from report_files where report_id = $1 and format = 'pdf'`,
      [report.id],
    );
    expect(count!.n).toBe(2);
    expect(again.text).toBe(text);
  });
});

describe('A production limits report', () => {
  it('prints the production’s MAC matrix in the controlled layout', async () => {
    const report = await generate({ kind: 'production-limits', productionId: facility.line1 });
    expect(report).toMatchObject({ number: expect.stringMatching(/^RPT-/), error: null });
    expect(report.title).toBe('MAC matrix · Line 1');
    expect(report.files.map((f: TestBody) => f.format).sort()).toEqual(['pdf', 'xlsx']);
    const { text, pages } = await pdfOf(`/reports/production-limits/${report.id}/pdf`);
    expect(text).toContain(`${report.number} v1 · Being Built`);
    expect(text).toContain('DRAFT');
    expect(text).toContain(`Page 1 of ${pages}`);
    // A → B: 1,000 mg by the general limit; B → A: 250 mg by PDE over 130,000 sqcm.
    expect(text).toContain('1,000 mg');
    expect(text).toContain('250 mg');
    expect(text).toContain('0.001923 mg/cm²');
    expect(text).not.toContain('C -> D');
    expect(text).toContain(report.dataHash);
    expect(text).toContain(`Production id: ${facility.line1}`);
    const regenerated = await t.call('GET', `${facility.F}/reports/${report.id}/regenerate`);
    expect(regenerated.body.same).toBe(true);
    // Another kind's path does not serve it.
    expect((await download(`/reports/worst-case-ranking/${report.id}/pdf`)).status).toBe(404);
  });
});

describe('A production limits report of every production', () => {
  it('is titled by the facility, and prints the productions’ limits then each matrix in turn', async () => {
    const report = await generate({ kind: 'production-limits' });
    const [named] = await t.server.db.query<{ name: string }>(
      'select name from facilities where id = $1',
      [facility.facilityId],
    );
    expect(report.title).toBe(`Production limits · ${named!.name}`);
    const { text } = await pdfOf(`/reports/production-limits/${report.id}/pdf`);
    expect(text).toContain(`Facility: ${named!.name} · 2 productions · Chemical policy`);
    expect(text).toContain('Governing MACO and lowest limits of each production');
    expect(text).toContain('MAC matrix · Line 1');
    expect(text).toContain('MAC matrix · Line 2');
    expect(text).toContain('B -> A');
    expect(text).toContain('C -> D');
  });

  it('reads the same laid out a part at a time, each page numbered within the whole', async () => {
    // A report of 5,000 products is written a part at a time (render-pdf.ts); here parts so
    // small that each production's matrix and derivations are parts of their own.
    const report = await generate({ kind: 'production-limits' });
    const [row] = await t.server.db.query<{ data: unknown }>(
      'select data from reports where id = $1',
      [report.id],
    );
    const settings = await facilityDateTimeSettings(t.server.db, facility.facilityId);
    const { doc, frame } = controlledPdfDefinition({
      facilityName: settings.name,
      title: report.title as string,
      number: report.number as string,
      versionNumber: 1,
      status: 'BeingBuilt',
      signatureState: null,
      settings,
      generatedBy: 'Report tester',
      generatedAt: new Date(report.asOf as string),
      dataHash: report.dataHash as string,
      files: [],
      limitsSnapshotName: null,
      parameters: { kind: 'production-limits' },
      asOf: report.asOf as string,
      signatures: [],
      content: REPORT_KIND_DEFS['production-limits'].pdfContent(row!.data, settings),
      fontSize: 7,
    });
    const pagesOf = async (pdf: Buffer) =>
      (await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: false })).text;
    const streamed = await pagesOf(await streamPdfDocument(doc, frame, 1_000));
    const total = streamed.length;
    streamed.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${total}`);
      expect(page).toContain(`${report.number as string} v1`);
      expect(page).toContain('DRAFT');
    });
    const starts = (heading: string) => streamed.findIndex((page) => page.includes(heading));
    const chapters = ['MAC matrix · Line 1', 'MAC matrix · Line 2', 'Signatures'].map(starts);
    expect(chapters[0]).toBeGreaterThan(0);
    expect(chapters[1]).toBeGreaterThan(chapters[0]!);
    expect(chapters[2]).toBeGreaterThan(chapters[1]!);
    expect(streamed[total - 1]).toContain('Hashes and parameters to regenerate this report');
    // Page for page what the document laid out in one pass shows.
    expect(streamed).toEqual(await pagesOf(await renderPdfDocument(doc, frame)));
  });
});

describe('Report requests', () => {
  it('lists the kinds as get-report-tags and the stored reports, newest first', async () => {
    const tags = await t.call('GET', `${facility.F}/get-report-tags`);
    expect(tags.status).toBe(200);
    expect(tags.body.tags.map((k: TestBody) => k.kind)).toEqual([...REPORT_KINDS]);
    const list = await t.call('GET', `${facility.F}/reports?pageNumber=1&pageLimit=10`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBeGreaterThanOrEqual(2);
    const ids = (list.body.reports as TestBody[]).map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('refuses bad input with a 4xx and stores nothing', async () => {
    const before = await t.server.db.query('select id from reports');
    for (const body of [
      {},
      { kind: 'nope' },
      { kind: 'production-limits', variant: 'other' },
      { kind: 'production-limits', productionId: 'x' },
      { kind: 'worst-case-ranking', extra: 1 },
    ]) {
      const res = await t.call('POST', `${facility.F}/reports/generate_report`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errName).toBe('DataValidationError');
    }
    expect(await t.server.db.query('select id from reports')).toEqual(before);
    expect((await download('/reports/worst-case-ranking/999999/pdf')).status).toBe(404);
    expect((await download('/reports/unknown-kind/1/pdf')).status).toBe(422);
    expect((await t.call('GET', `${facility.F}/reports/999999`)).status).toBe(404);
  });

  it('needs ReportDocument Generate to generate and Get to read or download', async () => {
    const reader = await buildUser(t.server.db, {
      facilityIds: [facility.facilityId],
      permissions: permissionsWith({ ReportDocument: ['Get'] }),
    });
    const readerToken = await t.server.login(reader.username, reader.password);
    const refused = await t.call(
      'POST',
      `${facility.F}/reports/generate_report`,
      { kind: 'worst-case-ranking' },
      readerToken,
    );
    expect(refused.status).toBe(403);
    expect((await t.call('GET', `${facility.F}/reports`, undefined, readerToken)).status).toBe(200);
    const stranger = await buildUser(t.server.db, {
      facilityIds: [facility.facilityId],
      permissions: permissionsWith({ Product: ['Get'] }),
    });
    const strangerToken = await t.server.login(stranger.username, stranger.password);
    expect((await t.call('GET', `${facility.F}/reports`, undefined, strangerToken)).status).toBe(
      403,
    );
    expect((await download('/reports/worst-case-ranking/1/pdf', strangerToken)).status).toBe(403);
    expect((await download('/get-report-tags', strangerToken)).status).toBe(403);
  });
});

describe('A report read as its job ends', () => {
  it('shows the report and its job as of one moment: never done and incomplete', async () => {
    const db = t.server.db;
    const jobId = randomUUID();
    await db.query(
      `insert into job_runs (id, facility_id, name, state, stage, done, total)
       values ($1, $2, 'report', 'running', 'Rendering', 2, 3)`,
      [jobId, t.facilityId],
    );
    const [row] = await db.query<{ id: number }>(
      `insert into reports (facility_id, seq, number, kind, title, parameters, job_id, generated_by)
       select $1, 900, 'RPT-0900', 'worst-case-ranking', 'Ranking', '{}', $2, min(id) from users
       returning id`,
      [t.facilityId, jobId],
    );
    // The job commits its end (report and job in one transaction) right after the first read.
    const racing = commitBetweenReads(db, async (tx) => {
      await tx.query('update reports set completed_at = now() where id = $1', [row!.id]);
      await tx.query(`update job_runs set state = 'done', done = 3 where id = $1`, [jobId]);
    });
    const read = await getReport(racing, t.facilityId, row!.id);
    expect(read).toMatchObject({ completedAt: null, progress: { state: 'running', done: 2 } });
    const after = await getReport(db, t.facilityId, row!.id);
    expect(after).toMatchObject({ progress: { state: 'done', done: 3 } });
    expect(after.completedAt).not.toBeNull();
  });
});
