// The annual summary of a large facility (issue 13; target under 10 s as a job): the
// 1,000-product facility imported from its workbook, the verification study of
// verification-fixture.ts, then STUDIES more studies, each over EQUIPMENT items of one line
// (two swab locations each) with RUNS runs of seeded results; every run counts in the period.
// Then POST {F}/annualSummary with SECTIONS custom sections, polled until its job is done:
// prints the time of each stage of the job (as its progress reports it), the pages and the size
// of the PDF downloaded from GET {F}/annualSummary/{id}. With REPEAT=n it makes n summaries of
// the same data one after another (the set-up takes minutes) and prints the median job.
// Runs on PGlite, and on the PostgreSQL server at 127.0.0.1:5432 when one answers.
//   npm run bench:annual-summary
import { readPdfText } from '#server/test/read-pdf-text.ts';
import {
  THOUSAND_PRODUCTS,
  admin,
  facilityCaller,
  facilityWorkbook,
  onEachDatabase,
  rng,
  signIn,
  uploadWorkbook,
  type BenchBody,
} from './bench-fixture.ts';
import { MAX_CUSTOM_SECTIONS } from '#core/schemas/annual-summary.schemas.ts';
import { startServerProcess } from './server-process.ts';
import { runResults, verificationStudy } from './verification-fixture.ts';

const STUDIES = Number(process.env.STUDIES ?? 60);
const EQUIPMENT = Number(process.env.EQUIPMENT ?? 4);
const RUNS = Number(process.env.RUNS ?? 10);
const SECTIONS = Number(process.env.SECTIONS ?? 10);
// Summaries generated one after another on the same data: the first also starts the PDF workers.
const REPEAT = Number(process.env.REPEAT ?? 1);
// Refused before the long set-up rather than by POST /annualSummary after it.
if (SECTIONS > MAX_CUSTOM_SECTIONS)
  throw new Error(`SECTIONS: at most ${MAX_CUSTOM_SECTIONS}, as the annualSummary request allows`);

type Call = ReturnType<typeof facilityCaller>;

/** A study over `EQUIPMENT` items of a line, two swab locations on each, with its runs. */
async function studyWithRuns(
  call: Call,
  line: BenchBody,
  i: number,
  base: { method: number; swab: number; snapshotId: number },
  next: () => number,
) {
  const samplingPlan: BenchBody[] = [];
  for (const equipmentId of (line.equipmentIds as number[]).slice(0, EQUIPMENT)) {
    const created = await call('POST', `/equipments/${equipmentId}/sampling-locations`, {
      equipmentId,
      data: ['Inlet', 'Outlet'].map((name) => ({
        name: `${name} ${i}`,
        sampleType: 'swab',
        samplingTypeId: base.swab,
        material: 'PTFE',
      })),
    });
    for (const l of created.result as BenchBody[])
      samplingPlan.push({
        samplingLocationId: l.id,
        sampleType: 'swab',
        analyticalMethodId: base.method,
      });
  }
  const protocol = await call('POST', '/protocols', {
    protocolNumber: `PR-ANNUAL-${i}`,
    name: `Cleaning of ${String(line.name)}`,
    productionId: line.id,
    equipmentIds: (line.equipmentIds as number[]).slice(0, EQUIPMENT),
    productIds: (line.productIds as number[]).slice(0, 2),
    samplingPlan,
    limitsSnapshotId: base.snapshotId,
  });
  const id = protocol.result.id as number;
  // verificationStudy set the Protocol policy: the administrator approves alone.
  for (const action of ['Submit', 'Approve'])
    await call('POST', '/signatures', {
      documentType: 'Protocol',
      documentId: id,
      action,
      password: admin.ADMIN_PASSWORD,
    });
  const study = await call('POST', '/studies', {
    title: `Verification of ${String(line.name)}`,
    studyType: 'Periodic Verification',
    protocolId: id,
  });
  for (let r = 0; r < RUNS; r++) {
    const run = (await call('POST', `/studies/${study.id}/runs`, {})).run as BenchBody;
    await call('POST', `/runs/${run.id}/results`, {
      results: runResults(run, base.method, next),
    });
  }
}

/** One annual summary, polled until its job is done; its timings, pages and size printed. */
async function generate(label: string, call: Call, F: string, token: string): Promise<number> {
  const year = new Date().getUTCFullYear();
  const started = performance.now();
  const answer = await call('POST', '/annualSummary', {
    start: `${year}-01-01`,
    end: `${year}-12-31`,
    customSections: Array.from({ length: SECTIONS }, (_, i) => ({
      title: `Review of area ${i + 1}`,
      text: Array.from(
        { length: 40 },
        (_, j) =>
          `Finding ${j + 1}: the cleaning of area ${i + 1} was reviewed against its protocol, its results and deviations, and the trend of its equipment.`,
      ).join('\n'),
    })),
  });
  const answered = performance.now() - started;
  const stages: { stage: string; at: number }[] = [];
  let report: BenchBody;
  for (;;) {
    report = (await call('GET', `/reports/${answer.reportId}`)).report;
    const stage = report.progress?.stage as string | undefined;
    if (stage && stages.at(-1)?.stage !== stage)
      stages.push({ stage, at: performance.now() - started });
    if (report.completedAt || report.error) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  if (report.error) throw new Error(report.error);
  const job = performance.now() - started;
  const timings = stages.map((s, i) => {
    const end = stages[i + 1]?.at ?? job;
    return `${s.stage} ${((end - s.at) / 1000).toFixed(1)} s`;
  });
  const downloadStart = performance.now();
  const res = await fetch(`${F}/annualSummary/${answer.reportId}`, { headers: { token } });
  const pdf = new Uint8Array(await res.arrayBuffer());
  const download = performance.now() - downloadStart;
  const { pages } = await readPdfText(pdf);
  console.log(
    `${label}: annual summary answered in ${answered.toFixed(0)} ms, job done in ${(job / 1000).toFixed(1)} s (${timings.join(', ')}); ${pages} pages, ${(pdf.length / 1e6).toFixed(1)} MB, stored PDF download ${download.toFixed(0)} ms (${res.headers.get('content-disposition')})`,
  );
  return job;
}

async function run(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env });
  try {
    const { token, facility } = await signIn(server.url);
    const F = facility(1);
    await uploadWorkbook(F, token, workbook);
    const call = facilityCaller(F, token);
    const setupStart = performance.now();
    const first = await verificationStudy(call);
    const next = rng(13);
    for (let r = 0; r < RUNS; r++) {
      const run = (await call('POST', `/studies/${first.studyId}/runs`, {})).run as BenchBody;
      await call('POST', `/runs/${run.id}/results`, {
        results: runResults(run, first.method, next),
      });
    }
    const snapshotId = (await call('GET', `/studies/${first.studyId}`)).limitsSnapshotId as number;
    const types = (await call('GET', '/sampling-types')).data as BenchBody[];
    const swab = types.find((x) => x.name === 'Swab')!.id as number;
    const lines = (await call('GET', `/productions?pageLimit=${STUDIES + 1}`)).data as BenchBody[];
    for (const [i, line] of lines.slice(1, STUDIES + 1).entries())
      await studyWithRuns(call, line, i, { method: first.method, swab, snapshotId }, next);
    console.log(
      `${label}: set up ${STUDIES + 1} studies, ${(STUDIES + 1) * RUNS} runs in ${((performance.now() - setupStart) / 1000).toFixed(0)} s`,
    );

    const jobs: number[] = [];
    for (let i = 0; i < REPEAT; i++) jobs.push(await generate(label, call, F, token));
    if (REPEAT > 1) {
      const sorted = [...jobs].sort((a, b) => a - b);
      console.log(
        `${label}: median job of ${REPEAT} ${(sorted[Math.floor(REPEAT / 2)]! / 1000).toFixed(1)} s (${jobs.map((j) => (j / 1000).toFixed(1)).join(', ')})`,
      );
    }
  } finally {
    await server.stop();
  }
}

const workbook = await facilityWorkbook(THOUSAND_PRODUCTS);
await onEachDatabase(run);
