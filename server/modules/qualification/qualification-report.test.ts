import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import type { QualificationPack } from '#core/qualification/pack.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { adminEditor, putInForce } from '#server/test/policy-in-force.ts';
import { reportKit } from '#server/test/report-test-kit.ts';

/**
 * The qualification pack from the screen (issue 33): generated as a controlled report, stored
 * with the hash of the pack, and signed (submitted and approved) like every ReportDocument.
 */
describe('the qualification pack as a controlled report', () => {
  const t = useFacilityTestServer();
  const { generate, pdfOf } = reportKit(t);

  it('is refused without ReportDocument Generate, then passes, is signed and prints it', async () => {
    const refused = await t.server.request('POST', `${t.F}/reports/generate_report`, {
      body: { kind: 'qualification' },
    });
    expect(refused.status).toBe(401);

    const report = await generate({ kind: 'qualification' });
    expect(report.error).toBeNull();
    expect(report.kind).toBe('qualification');
    expect(report.title).toBe('Qualification pack');
    const [row] = await t.server.db.query<{ data: QualificationPack }>(
      'select data from reports where id = $1',
      [report.id],
    );
    const pack = row!.data;
    expect(pack.outcome).toBe('passed');
    expect(pack.summary.failed).toBe(0);
    expect(pack.summary.cases).toBeGreaterThanOrEqual(70);
    expect(pack.installation.problems).toEqual([]);
    expect(pack.operational.every((r) => r.engine.pass && r.api.pass)).toBe(true);

    await putInForce(t.server, t.F, adminEditor(t.token), 'ReportDocument', report.id as number);
    const signatures = (
      await t.call('GET', `${t.F}/signatures?documentType=ReportDocument&documentId=${report.id}`)
    ).body.signatures as TestBody[];
    expect(signatures.map((s) => s.action)).toEqual(['Submit', 'Approve']);

    const path = `/reports/qualification/${report.id}/pdf`;
    const { text } = await pdfOf(path);
    const file = await fetch(`${t.server.url}${t.F}${path}`, { headers: { token: t.token } });
    const pages = (
      await extractText(await getDocumentProxy(new Uint8Array(await file.arrayBuffer())))
    ).text;
    expect(pages[0]).toContain(`QUALIFICATION PASSED: all ${pack.summary.cases} cases passed`);
    expect(text).not.toContain('DRAFT');
    for (const s of signatures) expect(text).toContain(s.printedName);
    expect(text).toContain('Installation report');
    expect(text).toContain('Operational report');
  }, 300_000);
});
