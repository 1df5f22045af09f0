// The production-limits report of the 1,000-product facility (issue 13; target under 10 s as a
// job), through the HTTP API of a production build: one production's report and the report of
// every production in one document, each from `reports/generate_report` until its job is done,
// then the stored PDF's download; pages and size of the file; the server's CPU and peak memory,
// in a server started again after the import so that the peak is the reports' (issue 34).
// Runs on PGlite, and on the PostgreSQL server at 127.0.0.1:5432 when one answers.
//   npm run bench:report-production-limits
import { readPdfText } from '#server/test/read-pdf-text.ts';
import {
  facilityOfSize,
  admin,
  facilityWorkbook,
  onEachDatabase,
  signIn,
  uploadWorkbook,
} from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';

interface Report {
  id: number;
  completedAt: string | null;
  error: string | null;
  progress: { stage: string } | null;
}

// PRODUCTS=5000 measures a larger facility of the same shape (issue 34's size).
const SIZE = facilityOfSize();
// Each database's peak resident memory over both reports, in a server started after the import.
const peaks = new Map<string, number>();

// `rss` reads the server's resident memory: the largest seen in each stage of the job says
// which one its peak belongs to.
async function timeReport(F: string, token: string, body: object, rss: () => number) {
  const headers = { token, 'content-type': 'application/json' };
  const started = performance.now();
  const res = await fetch(`${F}/reports/generate_report`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  const answered = performance.now() - started;
  const { reportId } = (await res.json()) as { reportId: number };
  let report: Report;
  const stages = new Map<string, number>();
  for (;;) {
    const res = await fetch(`${F}/reports/${reportId}`, { headers });
    if (!res.ok) throw new Error(`reports/${reportId}: ${res.status} ${await res.text()}`);
    report = ((await res.json()) as { report: Report }).report;
    if (report.progress) {
      const stage = report.progress.stage || 'Waiting to start';
      stages.set(stage, Math.max(stages.get(stage) ?? 0, rss()));
    }
    if (report.completedAt || report.error) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (report.error) throw new Error(report.error);
  const job = performance.now() - started;
  const downloadStart = performance.now();
  const pdf = new Uint8Array(
    await (
      await fetch(`${F}/reports/production-limits/${reportId}/pdf`, { headers })
    ).arrayBuffer(),
  );
  const download = performance.now() - downloadStart;
  const { pages } = await readPdfText(pdf);
  const seen = [...stages].map(([stage, mib]) => `${stage} ${mib.toFixed(0)} MiB`);
  return { answered, job, download, pages, bytes: pdf.length, stages: seen };
}

async function run(label: string, env: Record<string, string>): Promise<void> {
  const serverEnv = { ...admin, SERVE_CLIENT: 'false', ...env };
  let server = await startServerProcess(serverEnv);
  try {
    const imported = await signIn(server.url);
    await uploadWorkbook(imported.facility(1), imported.token, workbook);
    const importPeak = server.peakRssMiB();
    // A new process for the reports: its peak memory is theirs, not the import's (issue 34).
    await server.stop();
    server = await startServerProcess(serverEnv);
    const { token, facility } = await signIn(server.url);
    const F = facility(1);
    const productions = (await (
      await fetch(`${F}/productions?pageLimit=1`, { headers: { token } })
    ).json()) as { data?: { id: number }[]; productions?: { id: number }[] };
    const first = (productions.data ?? productions.productions ?? [])[0]!.id;
    const rssBefore = server.peakRssMiB();
    for (const [what, body] of [
      ['one production (10 products)', { kind: 'production-limits', productionId: first }],
      [
        `every production (${SIZE.productions} lines, ${SIZE.products} products)`,
        { kind: 'production-limits' },
      ],
    ] as const) {
      const cpu = server.cpuMs();
      const r = await timeReport(F, token, body, server.rssMiB);
      const cpuMs = server.cpuMs() - cpu;
      console.log(
        `${label}: production-limits report, ${what}: answered ${r.answered.toFixed(0)} ms, job done ${(r.job / 1000).toFixed(1)} s (stages seen, with the most resident memory seen in each: ${r.stages.join(', ')}), stored PDF download ${r.download.toFixed(0)} ms, ${r.pages} pages, ${(r.bytes / 1e6).toFixed(1)} MB; server CPU ${(cpuMs / 1000).toFixed(1)} s, peak RSS ${server.peakRssMiB().toFixed(0)} MiB (${rssBefore.toFixed(0)} MiB before the reports, in a server started after the import, whose own peak was ${importPeak.toFixed(0)} MiB)`,
      );
    }
    peaks.set(label, server.peakRssMiB());
  } finally {
    await server.stop();
  }
}

const workbook = await facilityWorkbook(SIZE);
await onEachDatabase(run);
console.log(
  `Peak RSS of the reports at ${SIZE.products} products (goal < 512 MiB on each database): ${[...peaks].map(([label, mib]) => `${label} ${mib.toFixed(0)} MiB`).join(', ')}`,
);
