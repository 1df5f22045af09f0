// Entering 10,000 sample results across 500 runs over HTTP (issue 12): POST {F}/studies/{id}/runs
// and POST {F}/runs/{id}/results with a run's 20 results, each judged by the server. Prints the
// total time, results per second and p50/p99 per results request. Runs on PGlite, then on the
// PostgreSQL server at 127.0.0.1:5432 when one answers.
//   npm run bench:verification-results
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

const RUNS = Number(process.env.RUNS ?? 500);

async function run(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env });
  try {
    const { token, facility } = await signIn(server.url);
    const F = facility(1);
    await uploadWorkbook(F, token, workbook);
    const call = facilityCaller(F, token);
    const { studyId, method } = await verificationStudy(call);
    const next = rng(5);
    const times: number[] = [];
    const started = performance.now();
    for (let i = 0; i < RUNS; i++) {
      const run = (await call('POST', `/studies/${studyId}/runs`, {})).run;
      const t = performance.now();
      await call('POST', `/runs/${run.id}/results`, { results: runResults(run, method, next) });
      times.push(performance.now() - t);
    }
    const seconds = (performance.now() - started) / 1000;
    const sorted = times.sort((a, b) => a - b);
    const results = RUNS * LOCATIONS;
    console.log(
      `${label}: ${results} results in ${RUNS} runs entered in ${seconds.toFixed(1)} s (${(results / seconds).toFixed(0)} results/s, runs created included); POST results (${LOCATIONS} each): p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms`,
    );
  } finally {
    await server.stop();
  }
}

const workbook = await smallWorkbook();
await onEachDatabase(run);
