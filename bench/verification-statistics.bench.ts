// GET {F}/verification/statistics over 5,000 results (issue 12): 250 runs of 20 results on one
// item of equipment entered over HTTP, then the statistics of that equipment read 50 times
// (p50/p99); then the Ongoing verification page over the same results in headless Chromium,
// in the production build: the time from opening the page until its four charts are drawn
// (first open, then reloads; median). Runs on PGlite, then on the PostgreSQL server at
// 127.0.0.1:5432.
//   npm run bench:verification-statistics
import { execFileSync } from 'node:child_process';
import { launchBrowser, newPage } from '#e2e/browser.ts';
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
const PAGE_LOADS = Number(process.env.PAGE_LOADS ?? 5);

async function run(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'true', ...env });
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
    // Last: the browser's sign-in ends the API session above.
    const page = await pageTimes(server.url, equipmentId);
    const rest = page.slice(1).sort((a, b) => a - b);
    console.log(
      `${label}: Ongoing verification page over ${count} results, charts drawn: first open ${page[0]!.toFixed(0)} ms, reload p50 ${percentile(rest, 50).toFixed(0)} ms (${rest.length} reloads)`,
    );
  } finally {
    await server.stop();
  }
}

/**
 * Times from navigation until the individuals, moving range and EWMA charts are on screen: the first open loads the page's code, the reloads come from the cache.
 */
async function pageTimes(url: string, equipmentId: number): Promise<number[]> {
  const browser = await launchBrowser();
  try {
    const { page } = await newPage(browser, url);
    page.setDefaultTimeout(120_000);
    await page.goto('/');
    await page.getByLabel('Email/Employee ID').fill(admin.ADMIN_EMAIL);
    await page.getByLabel('Password', { exact: true }).fill(admin.ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('button', { name: 'Oral Solid Dosage Plant' }).click();
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    const times: number[] = [];
    for (let i = 0; i < PAGE_LOADS; i++) {
      const started = performance.now();
      if (i === 0) await page.goto(`/verification?groupBy=equipment&key=${equipmentId}`);
      else await page.reload();
      for (const chart of [/^Individuals/, /^Moving range/, /^EWMA/])
        await page.getByRole('img', { name: chart }).waitFor();
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    await browser.close();
  }
}

execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
const workbook = await smallWorkbook();
await onEachDatabase(run);
