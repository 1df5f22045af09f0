import { beforeAll, describe, expect, it } from 'vitest';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { runKit } from '#server/test/run-test-kit.ts';
import { reportKit } from '#server/test/report-test-kit.ts';
import { pastTheVersionLock } from '#server/test/sign-test-kit.ts';
import { ADMIN } from '#server/test/test-server.ts';

/*
 * Issue 28: a report's PDF checks what it prints as it is drawn. The record a report shows has
 * its signatures marked Valid or Not valid (bound into the audit chain with a MAC that holds,
 * over content unchanged), and its integrity beside its version: broken, never Active. The
 * report's own header is never Active when the report's approved version was changed behind
 * the app. The tampering is the owner's, past the locks (on PostgreSQL with DATABASE_OWNER_URL,
 * the schema's owner and not the app's role).
 */
const t = useFacilityTestServer();
const kit = runKit(t);
const { generate, pdfOf } = reportKit(t);
let run: TestBody;
beforeAll(async () => {
  await kit.build();
  run = await kit.completedRun(await kit.study());
});

const recordLine = (text: string) => /Record (version \d+, [^·]*?)(?= Outcome)/.exec(text)?.[1];

/** The rows of the record's signature table: name, role, action, …, Valid / Not valid. */
const validities = (text: string) =>
  [...text.matchAll(/(Submit|Approve) .*? \(UTC\) (Valid|Not valid)/g)].map((m) => [m[1], m[2]]);

describe("a report's PDF", () => {
  it("prints each of the record's signatures as valid, and the record as Active", async () => {
    const report = await generate({ kind: 'run', runId: run.id });
    const { text } = await pdfOf(`/reports/run/${report.id}/pdf`);
    expect(text).toContain('Signatures of the record');
    expect(validities(text)).toEqual([
      ['Submit', 'Valid'],
      ['Approve', 'Valid'],
    ]);
    expect(recordLine(text)).toBe('version 1, Active');
  });

  it('prints a signature the owner changed as not valid, and the record as broken', async () => {
    const report = await generate({ kind: 'run', runId: run.id });
    const owner = await t.server.db.owner();
    await owner.transaction(async (tx) => {
      await tx.query('alter table signatures disable trigger signatures_no_update');
      await tx.query(
        `update signatures set printed_name = 'Someone Else'
          where document_type = 'Run' and document_id = $1 and action = 'Approve'`,
        [run.id],
      );
      await tx.query('alter table signatures enable trigger signatures_no_update');
    });
    const { text } = await pdfOf(`/reports/run/${report.id}/pdf`);
    expect(validities(text)).toEqual([
      ['Submit', 'Valid'],
      ['Approve', 'Not valid'],
    ]);
    expect(recordLine(text)).toMatch(
      /^version 1, Integrity broken: A signature of this version is not bound/,
    );
    expect(text).not.toContain('version 1, Active');
  });
});

describe("a report's own header", () => {
  it('is never Active once its approved version was changed behind the app', async () => {
    const policy = await t.call('GET', `${t.F}/approval_policies?documentType=ReportDocument`);
    await kit.ok('POST', '/approval_policies', {
      documentType: 'ReportDocument',
      steps: [{ order: 1, signerRole: 'Approver', roleIds: [], minSignatures: 1 }],
      allowSelfApproval: true,
      reason: 'One approver signs reports in this test',
      version: policy.body.approvalPolicy.version,
    });
    const report = await generate({ kind: 'worst-case-ranking' });
    for (const action of ['Submit', 'Approve'])
      await kit.ok('POST', '/signatures', {
        documentType: 'ReportDocument',
        documentId: report.id,
        action,
        password: ADMIN.password,
      });
    const path = `/reports/worst-case-ranking/${report.id}/pdf`;
    expect((await pdfOf(path)).text).toContain(`${report.number} v1 · Active`);
    await pastTheVersionLock(
      await t.server.db.owner(),
      `update controlled_versions set content = content || '{"title": "Changed"}'
        where document_type = 'ReportDocument' and document_id = $1 and status = 'Approved'`,
      [report.id],
    );
    const { text } = await pdfOf(path);
    expect(text).toContain(`${report.number} v1 · Integrity broken`);
    expect(text).not.toContain(`${report.number} v1 · Active`);
  });
});
