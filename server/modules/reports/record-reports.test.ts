import { formatNumber, formatQuantity } from '#core/units/format-number.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeAssessmentKit } from '#server/test/change-assessment-kit.ts';
import { useFacilityTestServer, type TestBody } from '#server/test/facility-test-file.ts';
import { adminEditor } from '#server/test/policy-in-force.ts';
import { runKit, type RunFacility } from '#server/test/run-test-kit.ts';
import { reportKit } from '#server/test/report-test-kit.ts';

/*
 * The reports of one record (a run, a study, a change and a cleaning assessment), read back from
 * the PDF and checked against the record as its own routes give it; each read again as of its
 * date gives the same data hash.
 */
const t = useFacilityTestServer();
const kit = runKit(t);
const { generate, pdfOf } = reportKit(t);
let f: RunFacility;
beforeAll(async () => {
  f = await kit.build();
});

const fixed = (n: number) => formatNumber(n);

async function sameAsOfItsDate(report: TestBody) {
  const res = await t.call('GET', `${t.F}/reports/${report.id}/regenerate`);
  expect(res.status).toBe(200);
  expect(res.body.same).toBe(true);
}

describe('A run report and a study report', () => {
  let studyId: number;
  let run: TestBody;
  let second: TestBody;
  let deviation: TestBody;

  beforeAll(async () => {
    studyId = await kit.study();
    run = await kit.completedRun(studyId);
    // A second run: one location fails at twice its limit, with a deviation.
    second = await kit.newRun(studyId);
    second = await kit.event(second, {
      startedAt: '2026-11-02T08:00:00Z',
      productBatch: 'PB-0099',
    });
    second = await kit.visualPass(second);
    const entered = await kit.results(second, [
      kit.row(second, f.steel, 2),
      kit.row(second, f.ptfe, 0.5),
    ]);
    expect(entered.status, JSON.stringify(entered.body)).toBe(200);
    await kit.ok('POST', `/runs/${second.id}/deviations`, {
      title: 'Valve swab above limit',
      kind: 'process',
    });
    second = (await kit.ok('GET', `/runs/${second.id}`)).run as TestBody;
    deviation = (second.deviations as TestBody[])[0]!;
  });

  it('prints the cleaning event, inspection, each result against its limit and the release flag', async () => {
    const report = await generate({ kind: 'run', runId: second.id });
    expect(report.error).toBeNull();
    expect(report.title).toBe(`Run 2 of ${second.studyNumber}`);
    const { text } = await pdfOf(`/reports/run/${report.id}/pdf`);
    expect(text).toContain(`${second.studyNumber}: Study 1`);
    expect(text).toContain('Cleaning event');
    // The product batch the cleaning followed, apart from the samples' own numbers (issue 30).
    expect(text).toContain('Product batch PB-0099');
    expect(text).toContain(`Result ${second.inspection.record.result}`);
    expect(text).toContain('800 lux');
    expect(text).toContain(`Outcome ${second.verdict}`);
    expect(text).toContain('Release flag Cannot be released');
    for (const r of second.results as TestBody[]) {
      const j = r.judgement;
      expect(text).toContain(`${r.samplingLocationName} E1`);
      expect(text).toContain(formatQuantity(r.rawValue, r.unit));
      expect(text).toContain(
        `${formatQuantity(j.correctedValue, r.unit)} (recovery ${fixed(j.recovery * 100)} %)`,
      );
      expect(text).toContain(formatQuantity(j.limit, r.unit));
      expect(text).toContain(`${fixed(j.percentOfLimit)} % ${j.passed ? 'Pass' : 'Fail'}`);
    }
    expect(text).toContain(`${deviation.number} Process Valve swab above limit`);
    expect(text).toContain('The record had no signatures at the time of the report.');
    await sameAsOfItsDate(report);
  });

  it('prints the completed run’s signatures', async () => {
    const report = await generate({ kind: 'run', runId: run.id });
    const { text } = await pdfOf(`/reports/run/${report.id}/pdf`);
    expect(text).toContain('Release flag Can be released');
    expect(text).toContain(`Outcome ${run.verdict}`);
    const signatures = (
      await t.call('GET', `${t.F}/signatures?documentType=Run&documentId=${run.id}`)
    ).body.signatures as TestBody[];
    expect(signatures.map((s) => s.action)).toEqual(['Submit', 'Approve']);
    for (const s of signatures)
      expect(text).toContain(`${s.printedName} ${s.signerRole} ${s.action}`);
  });

  it('prints the protocol version, the runs with outcome and release flag, deviations and outcome', async () => {
    const study = (await kit.ok('GET', `/studies/${studyId}`)) as TestBody;
    const report = await generate({ kind: 'study', studyId });
    expect(report.error).toBeNull();
    expect(report.title).toBe(`Study ${study.number} · ${study.title}`);
    const { text } = await pdfOf(`/reports/study/${report.id}/pdf`);
    expect(text).toContain(
      `Protocol PR-1 ${study.protocolName}, version ${study.protocolVersionNumber}`,
    );
    expect(text).toContain(`Study outcome ${study.outcome}`);
    expect(text).toContain(
      `Consecutive passing runs ${study.consecutivePasses} of ${study.requiredPasses} required`,
    );
    expect(text).toMatch(/Outcome Release Record 1 /);
    expect(text).toContain(`${run.verdict} Can be released`);
    expect(text).toContain(`${second.verdict} Cannot be released`);
    expect(text).toContain(`${deviation.number} Run 2 Process Valve swab above limit`);
    await sameAsOfItsDate(report);
  });
});

describe('A change assessment report', () => {
  it('prints the header, the staged change, the impact with decisions and the signatures', async () => {
    const call = kit.call;
    const created = await kit.ok('POST', '/change-assessments', {
      title: 'Lower Beta PDE',
      changeType: 'HBEL/dose/batch change',
      description: 'New toxicology assessment of Beta',
    });
    let ca = created.changeAssessment as TestBody;
    const beta = (await kit.ok('GET', '/apis?search=Beta&pageLimit=100')).data[0] as TestBody;
    ca = (
      await kit.ok('POST', `/change-assessments/${ca.id}/changes`, {
        op: 'update',
        entity: 'actives',
        recordId: beta.id,
        values: { pde: { value: 0.5, unit: 'ug' } },
        reason: 'Toxicology report TX-9',
        version: ca.version,
      })
    ).changeAssessment;
    ca = (await kit.ok('POST', `/change-assessments/${ca.id}/evaluate`, { version: ca.version }))
      .changeAssessment;
    const cak = changeAssessmentKit(call);
    ca = await cak.decideAll(ca);
    expect((await cak.sign(ca.id, 'Submit', adminEditor(t.token))).status).toBe(200);
    const impact = (await kit.ok('GET', `/change-assessments/${ca.id}/impact?pageLimit=1000`))
      .items as TestBody[];
    expect(impact.length).toBeGreaterThan(0);

    const report = await generate({ kind: 'change-assessment', changeAssessmentId: ca.id });
    expect(report.error).toBeNull();
    expect(report.title).toBe(`Change assessment ${ca.number} · Lower Beta PDE`);
    const { text } = await pdfOf(`/reports/change-assessment/${report.id}/pdf`);
    expect(text).toContain(`Change assessment ${ca.number}: Lower Beta PDE`);
    expect(text).toContain('New toxicology assessment of Beta');
    expect(text).toContain(`${ca.changes[0].label.replaceAll('→', '->')} Toxicology report TX-9`);
    expect(text).toContain(`Pairs whose limits move ${ca.evaluation.summary.pairsMoved}`);
    for (const item of impact) {
      expect(text).toContain(item.subject);
      expect(text).toContain(item.summary.replaceAll('→', '->'));
    }
    expect(text).toContain('Verification');
    expect(text).toContain('Verify on the next batch');
    const signatures = (
      await t.call('GET', `${t.F}/signatures?documentType=ChangeAssessment&documentId=${ca.id}`)
    ).body.signatures as TestBody[];
    expect(signatures).toHaveLength(1);
    expect(text).toContain(`${signatures[0]!.printedName} Submitter Submit`);
    expect(text).toContain('Record version 1, Being approved');
    await sameAsOfItsDate(report);
  });
});

describe('A cleaning assessment report', () => {
  it('prints the worst case per train, the coverage matrix, the diff and the tasks', async () => {
    const started = await kit.ok('POST', '/cleaning-assessments', { reason: 'Annual review' });
    const id = started.cleaningAssessment.id as number;
    let assessment: TestBody;
    for (const deadline = Date.now() + 60_000; ;) {
      assessment = (await kit.ok('GET', `/cleaning-assessments/${id}`)).cleaningAssessment;
      if (assessment.result || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(assessment.result).not.toBeNull();
    const tasks = (await kit.ok('GET', `/qualification-task?evaluationId=${id}&pageLimit=100`))
      .qualificationTasks as TestBody[];

    const report = await generate({ kind: 'cleaning-assessment', cleaningAssessmentId: id });
    expect(report.error).toBeNull();
    expect(report.title).toBe(`Cleaning assessment ${assessment.number}`);
    const { text } = await pdfOf(`/reports/cleaning-assessment/${report.id}/pdf`);
    const result = assessment.result as TestBody;
    expect(text).toContain('Reason Annual review');
    expect(text).toContain(`${result.counts.cells} product × train cells`);
    for (const w of result.worstCases as TestBody[]) {
      expect(text).toContain(w.train);
      expect(text).toContain(w.reason.replaceAll('→', '->'));
    }
    expect(text).toContain('Product \\ Train');
    expect(text).toContain('Not covered');
    expect(text).toContain('This is the first assessment of the facility.');
    expect(tasks.length).toBeGreaterThan(0);
    for (const task of tasks) expect(text).toContain(`${task.train} ${task.product}`);
    await sameAsOfItsDate(report);
  });

  it('fails its job for a record that does not exist, and says why', async () => {
    const report = await generate({ kind: 'cleaning-assessment', cleaningAssessmentId: 999999 });
    expect(report.error).toBe('Cleaning assessment 999999 was not found');
    expect(report.completedAt).toBeNull();
  });
});
