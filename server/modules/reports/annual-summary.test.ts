import { auditActionLabel, auditDomainLabel } from '#core/audit/audit-format.ts';
import { statisticsFromWire } from '#core/verification/statistics-columns.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { individualsChart } from '#core/charts/statistics-charts.ts';
import type { TStatistics } from '#core/schemas/verification.schemas.ts';
import { formatPercent } from '#core/verification/statistics.ts';
import { changeAssessmentKit } from '#server/test/change-assessment-kit.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { buildUser, permissionsWith } from '#server/test/factories.ts';
import { adminEditor, putInForce } from '#server/test/policy-in-force.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';
import { MASTER_DATA_DOMAINS } from './annual-summary-data.ts';

/*
 * The annual summary over HTTP on the run-test facility: an approved change assessment, a study
 * with a failed result and a deviation, one with a passing run, master-data edits; the PDF read
 * back against the same data read through the other calls.
 */
const t = useFacilityTestServer();
const kit = runKit(t);
const { call, ok } = kit;
const today = new Date().toISOString().slice(0, 10);
const start = '2026-01-01';
const sections = [
  { title: 'Reviewer notes', text: 'The gasket failure was traced to a worn PTFE seal.' },
  { title: 'Plan for next year', text: 'Replace the gaskets of E1 before the next campaign.' },
];
let f: RunFacility;
let ca: TestBody;
let report: TestBody;

async function poll(id: number): Promise<TestBody> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const report = (await ok('GET', `/reports/${id}`)).report as TestBody;
    if (report.completedAt || report.error) return report;
    if (Date.now() > deadline) throw new Error(`report ${id} still running`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function generate(body: unknown): Promise<TestBody> {
  const res = await call('POST', '/annualSummary', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.report).toMatchObject({ kind: 'annual-summary', documentType: 'AnnualSummary' });
  return poll(res.body.reportId as number);
}

const download = (id: number, as = t.token) =>
  fetch(`${t.server.url}${t.F}/annualSummary/${id}`, { headers: { token: as } });

async function pdfText(id: number) {
  const res = await download(id);
  expect(res.status).toBe(200);
  const { text, pages } = await readPdfText(new Uint8Array(await res.arrayBuffer()));
  return { text: text.replace(/\s+/g, ' '), pages, res };
}

/** What the Ongoing verification screen shows for E1 over the report's period. */
async function e1Statistics(): Promise<TStatistics> {
  const e1 = (await ok('GET', '/equipments?search=E1&pageLimit=10')).data.find(
    (e: TestBody) => e.name === 'E1',
  );
  const path = `/verification/statistics?groupBy=equipment&key=${e1.id}&from=${start}&to=${today}`;
  return statisticsFromWire((await ok('GET', path)).statistics);
}

beforeAll(async () => {
  f = await kit.build();
  // A change assessment approved in the period: a dose change of product A.
  let created = (
    await ok('POST', '/change-assessments', { title: 'Raise A dose', changeType: 'Other' })
  ).changeAssessment as TestBody;
  const a = f.productIds[0]!;
  created = (
    await ok('POST', `/change-assessments/${created.id}/changes`, {
      op: 'update',
      entity: 'products',
      recordId: a,
      values: { maxDailyDose: { value: 300, unit: 'mg' } },
      reason: 'Planned change',
      version: created.version,
    })
  ).changeAssessment;
  created = (
    await ok('POST', `/change-assessments/${created.id}/evaluate`, { version: created.version })
  ).changeAssessment;
  created = await changeAssessmentKit(call).decideAll(created);
  await putInForce(t.server, t.F, adminEditor(t.token), 'ChangeAssessment', created.id);
  ca = (await ok('GET', `/change-assessments/${created.id}`)).changeAssessment;
  // A run with a failed result on the gasket and a deviation; a passing, completed run.
  let failing = await kit.newRun(await kit.study());
  failing = await kit.visualPass(await kit.event(failing, { startedAt: '2026-11-01T08:00:00Z' }));
  await kit.results(failing, [kit.row(failing, f.steel, 0.2), kit.row(failing, f.ptfe, 2)]);
  await ok('POST', `/runs/${failing.id}/deviations`, {
    title: 'Gasket worn',
    kind: 'process',
  });
  await kit.completedRun(await kit.study(), 0.3);
  // A master-data change.
  await ok('POST', '/equipments', { name: 'E9', surfaceArea: { value: 1, unit: 'sqm' } });
}, 240_000);

beforeAll(async () => {
  report = await generate({ start, end: today, customSections: sections });
}, 120_000);

describe('An annual summary', () => {
  it('is stored by its job as an AnnualSummary version 1 Being Built', () => {
    expect(report.error).toBeNull();
    expect(report).toMatchObject({
      kind: 'annual-summary',
      documentType: 'AnnualSummary',
      title: `Annual summary ${start} to ${today}`,
      status: 'BeingBuilt',
      versionNumber: 1,
      parameters: { kind: 'annual-summary', start, end: today, customSections: sections },
      progress: { state: 'done' },
    });
    expect(report.dataHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('downloads as a PDF named by the response whose sections match the data', async () => {
    const { text, pages, res } = await pdfText(report.id);
    const name = `${report.number} ${report.title}.pdf`;
    expect(res.headers.get('content-disposition')).toContain(`filename="${name}"`);
    expect(text).toContain(`${report.number} v1 · Being Built`);
    expect(text).toContain('DRAFT');
    expect(text).toContain(`Page ${pages} of ${pages}`);
    // Changes approved in the period, with their impact summary.
    const impact = ca.evaluation.summary as TestBody;
    expect(text).toContain(`${ca.number} v1 Raise A dose Other`);
    expect(text).toContain(
      `${impact.pairsMoved} pairs moved (${impact.pairsTightened} tightened), ${impact.pairsAdded} added`,
    );
    // Studies and their outcomes: both studies as the studies call gives them.
    const studies = (await ok('GET', '/studies?pageLimit=100')).data as TestBody[];
    expect(studies).toHaveLength(2);
    for (const s of studies)
      expect(text).toContain(`${s.number} ${s.title} Validation ${s.outcome}`);
    // Runs with their counts, the failed result and the deviation.
    const failingLabel = `${studies.find((s) => s.title === 'Study 1')!.number} run 1`;
    expect(text).toMatch(new RegExp(`${failingLabel} .*? Fail .*? 2 1 1`));
    expect(text).toContain(`${failingLabel} Gasket E1`);
    expect(text).toContain('Gasket worn Open');
    // Trend and capability of E1: the numbers of GET verification/statistics.
    const stats = await e1Statistics();
    expect(stats.count).toBe(4);
    expect(text).toContain(
      `E1 ${stats.count} ${stats.censoredCount} ${formatPercent(stats.mean!)} % ${formatPercent(stats.ucl!)} %`,
    );
    // Master-data changes per entity and action: the audit trail's counts.
    const counts = await t.server.db.query<{ domain: string; action: string; n: number }>(
      `select domain, action, count(*)::int as n from audit_log
        where facility_id = $1 and domain = any($2::text[]) and at < $3
        group by domain, action`,
      [t.facilityId, MASTER_DATA_DOMAINS, report.asOf],
    );
    expect(counts.length).toBeGreaterThan(0);
    // Domains and actions in words (issue 30), as the audit log names them.
    for (const c of counts)
      expect(text).toContain(`${auditDomainLabel(c.domain)} ${auditActionLabel(c.action)} ${c.n}`);
    // The conclusion, then the custom sections in their order, then the signature page.
    expect(text).toContain('1 change assessment approved in the period');
    expect(text).toContain('2 studies open in the period');
    expect(text).toContain('1 failed result of 4');
    const at = (s: string) => text.indexOf(s);
    expect(at('Conclusion')).toBeGreaterThan(0);
    expect(at('Reviewer notes')).toBeGreaterThan(at('Conclusion'));
    expect(at(sections[0]!.text)).toBeGreaterThan(at('Reviewer notes'));
    expect(at('Plan for next year')).toBeGreaterThan(at(sections[0]!.text));
    expect(at('This version has no signatures yet.')).toBeGreaterThan(at('Plan for next year'));
    expect(text).toContain(report.dataHash);
  });

  it("prints each equipment's individuals chart with the lines of the screen's chart", async () => {
    const { text } = await pdfText(report.id);
    const stats = await e1Statistics();
    const { settings } = await ok('GET', '/verification/settings');
    // The option the Ongoing verification screen draws for E1 over the same days.
    const screen = individualsChart(stats, settings, (iso) => iso.slice(0, 10));
    const [series] = screen.option.series as { markLine: { data: { name: string }[] } }[];
    const lines = series!.markLine.data.map((line) => line.name);
    expect(lines).toEqual([
      'Limit 100.0 %',
      `Action ${formatPercent(settings.actionPercent)} %`,
      `Alert ${formatPercent(settings.alertPercent)} %`,
      `UCL ${formatPercent(stats.ucl!)} %`,
      `Mean ${formatPercent(stats.mean!)} %`,
    ]);
    const chart = text.slice(text.indexOf(`E1: ${screen.title}`));
    expect(chart.length).toBeLessThan(text.length);
    for (const line of lines) expect(chart).toContain(line);
  });

  it('is listed under annualSummary and gives the same data read again as of its date', async () => {
    const list = await ok('GET', '/annualSummary?pageNumber=1&pageLimit=10');
    expect((list.reports as TestBody[]).map((r) => r.id)).toContain(report.id);
    expect((list.reports as TestBody[]).every((r) => r.kind === 'annual-summary')).toBe(true);
    // Data entered after the report does not move what it says.
    await kit.completedRun(await kit.study(), 0.1);
    await ok('POST', '/equipments', { name: 'E10', surfaceArea: { value: 1, unit: 'sqm' } });
    const again = await ok('GET', `/reports/${report.id}/regenerate`);
    expect(again).toMatchObject({ same: true, storedDataHash: report.dataHash });
  });

  it('is signed as AnnualSummary; once approved it prints its signatures and no DRAFT', async () => {
    const wrongType = await call('POST', '/signatures', {
      documentType: 'ReportDocument',
      documentId: report.id,
      action: 'Submit',
      password: adminEditor(t.token).password,
    });
    expect(wrongType.status).toBe(404);
    await putInForce(t.server, t.F, adminEditor(t.token), 'AnnualSummary', report.id);
    const approved = (await ok('GET', `/reports/${report.id}`)).report;
    expect(approved).toMatchObject({ status: 'Approved', signatureState: 'Signed' });
    const signatures = (
      await ok('GET', `/signatures?documentType=AnnualSummary&documentId=${report.id}`)
    ).signatures as TestBody[];
    expect(signatures.map((s) => s.action)).toEqual(['Submit', 'Approve']);
    const { text } = await pdfText(report.id);
    expect(text).not.toContain('DRAFT');
    expect(text).toContain(`${report.number} v1 · Active`);
    for (const s of signatures) expect(text).toContain(`${s.printedName}`);
    expect(text).toContain('Approver');
  });
});

describe('Annual summary requests', () => {
  it('refuses a bad period or sections with 422 naming each property, and stores nothing', async () => {
    const before = await t.server.db.query('select id from reports');
    const cases: [unknown, string[]][] = [
      [{}, ['start', 'end']],
      [{ start: '2026-13-01', end: 'yesterday' }, ['start', 'end']],
      [{ start: '2026-05-01', end: '2026-04-30' }, ['end']],
      [{ start, end: today, customSections: 'notes' }, ['customSections']],
      [
        { start, end: today, customSections: [{ title: '', text: 3 }] },
        ['customSections[0].title', 'customSections[0].text'],
      ],
      [{ start, end: today, customSections: [{ title: 'x', text: 'y', z: 1 }] }, []],
      [{ start, end: today, extra: 1 }, ['extra']],
    ];
    for (const [body, properties] of cases) {
      const res = await call('POST', '/annualSummary', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errName).toBe('DataValidationError');
      const named = (res.body.errors as TestBody[]).map((e) => e.property);
      for (const p of properties) expect(named, JSON.stringify(res.body)).toContain(p);
    }
    expect(await t.server.db.query('select id from reports')).toEqual(before);
    expect((await download(999_999)).status).toBe(404);
  });

  it('is also a kind of generate_report, and another kind of report is not an annual summary', async () => {
    const res = await call('POST', '/reports/generate_report', {
      kind: 'annual-summary',
      start: today,
      end: today,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const done = await poll(res.body.reportId as number);
    expect(done).toMatchObject({ documentType: 'AnnualSummary', error: null });
    const other = await call('POST', '/reports/generate_report', { kind: 'worst-case-ranking' });
    const ranking = await poll(other.body.reportId as number);
    expect(ranking.documentType).toBe('ReportDocument');
    expect((await download(ranking.id)).status).toBe(404);
    const list = await ok('GET', '/annualSummary?pageLimit=100');
    expect((list.reports as TestBody[]).map((r) => r.id)).not.toContain(ranking.id);
  });

  it('needs ReportDocument Generate to generate, Get to list and download, Modify to submit', async () => {
    const reader = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      permissions: permissionsWith({ ReportDocument: ['Get'], ApprovalPolicy: ['Sign'] }),
    });
    const readerToken = await t.server.login(reader.username, reader.password);
    const body = { start, end: today };
    expect((await call('POST', '/annualSummary', body, readerToken)).status).toBe(403);
    expect((await call('GET', '/annualSummary', undefined, readerToken)).status).toBe(200);
    expect((await download(report.id, readerToken)).status).toBe(200);
    const fresh = await generate(body);
    const submit = await call(
      'POST',
      '/signatures',
      {
        documentType: 'AnnualSummary',
        documentId: fresh.id,
        action: 'Submit',
        password: reader.password,
      },
      readerToken,
    );
    expect(submit.status).toBe(403);
    const stranger = await buildUser(t.server.db, {
      facilityIds: [t.facilityId],
      permissions: permissionsWith({ Product: ['Get'] }),
    });
    const strangerToken = await t.server.login(stranger.username, stranger.password);
    expect((await call('GET', '/annualSummary', undefined, strangerToken)).status).toBe(403);
    expect((await download(report.id, strangerToken)).status).toBe(403);
    expect((await call('POST', '/annualSummary', body, strangerToken)).status).toBe(403);
  });
});
