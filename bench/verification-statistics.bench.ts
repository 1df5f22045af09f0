// GET {F}/verification/statistics over 5,000 results (issue 12): 250 runs of 20 results on one
// item of equipment entered over HTTP, then the statistics of that equipment read 50 times.
// Prints p50/p99. Runs on PGlite, then on the PostgreSQL server at 127.0.0.1:5432.
//   npm run bench:verification-statistics
import {
  admin,
  facilityCaller,
  onEachDatabase,
  rng,
  signIn,
  uploadWorkbook,
} from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';
import {
  LOCATIONS,
  percentile,
  runResults,
  smallWorkbook,
  verificationStudy,
} from './verification-fixture.ts';

const RESULTS = 5_000;
const READS = Number(process.env.READS ?? 50);

async function run(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env }, 3332);
  try {
    const { token, facility } = await signIn(server.url);
    const F = facility(1);
    await uploadWorkbook(F, token, workbook);
    const call = facilityCaller(F, token);
    const { studyId, method } = await verificationStudy(call);
    const next = rng(9);
    let equipmentId = 0;
    for (let i = 0; i < RESULTS / LOCATIONS; i++) {
      const run = (await call('POST', `/studies/${studyId}/runs`, {})).run;
      const saved = await call('POST', `/runs/${run.id}/results`, {
        results: runResults(run, method, next),
      });
      equipmentId = saved.run.results[0].equipmentId;
    }
    const times: number[] = [];
    let count = 0;
    for (let i = 0; i < READS; i++) {
      const t = performance.now();
      const res = await call(
        'GET',
        `/verification/statistics?groupBy=equipment&key=${equipmentId}`,
      );
      times.push(performance.now() - t);
      count = res.statistics.count;
    }
    const sorted = times.sort((a, b) => a - b);
    console.log(
      `${label}: GET statistics over ${count} results, ${READS} reads: p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`,
    );
  } finally {
    await server.stop();
  }
}

const workbook = await smallWorkbook();
await onEachDatabase(run);
