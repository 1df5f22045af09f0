// The MAC matrix grid of a 1,000-product facility (issue 15), in a production build served by
// `npm start` on fresh PGlite, the facility imported as a generated workbook:
// - in headless Chromium: the time until the grid first shows cells (target under 2 s), opened
//   cold (nothing computed yet) and reloaded, then the frames of a scroll across it, how soon
//   the far corner is drawn, and a click on a cell until its derivation shows;
// - GET {F}/mac-matrix/grid: bytes per pair (identity, gzip, br; at most 120 before
//   compression), and its time computed afresh (asOf) against the cached state.
//   npm run bench:matrix-grid
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser } from '#e2e/browser.ts';
import {
  THOUSAND_PRODUCTS,
  admin,
  bytesOf,
  facilityWorkbook,
  signIn,
  signedInPage,
  uploadWorkbook,
} from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';
import { percentile } from './verification-fixture.ts';

const FACILITY = 'Oral Solid Dosage Plant';
const TARGET_MS = 2000;
const MAX_BYTES_PER_PAIR = 120;

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
execFileSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' });
const workbook = await facilityWorkbook(THOUSAND_PRODUCTS);
const dataDir = mkdtempSync(join(tmpdir(), 'carryover-matrix-grid-'));
const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'true', DATA_DIR: dataDir });
const browser = await launchBrowser();
try {
  const { token, facility } = await signIn(server.url);
  const F = facility(1);
  const imported = await uploadWorkbook(F, token, workbook);
  console.log(
    `1,000-product workbook (${String(imported.body.rows)} rows): import ${seconds(imported.ms)}`,
  );

  const page = await signedInPage(browser, server.url, FACILITY);

  const grid = page.getByRole('region', { name: 'MAC matrix grid' });
  const shown: number[] = [];
  // Run 1 opens the grid with nothing computed on the server and its chunk not loaded yet;
  // runs 2–3 reload it (the server's state cached).
  for (let run = 1; run <= 3; run += 1) {
    const started = performance.now();
    if (run === 1) await page.goto('/limits/mac-matrix?tab=grid');
    else await page.reload();
    await grid.locator('.mac-grid-cell').first().waitFor();
    shown.push(performance.now() - started);
    const counts = await page.getByText(/^[\d,]+ products, [\d,]+ pairs/).textContent();
    // How much of it was the grid's answer (request to last byte, as the browser timed it).
    const answered = await page.evaluate(() => {
      const entry = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find(
        (e) => e.name.includes('/mac-matrix/grid'),
      );
      return entry ? entry.responseEnd - entry.startTime : NaN;
    });
    console.log(
      `grid, run ${run} (${run === 1 ? 'cold' : 'reload'}): first cells shown ${seconds(shown[run - 1]!)} (target under ${seconds(TARGET_MS)}${shown[run - 1]! < TARGET_MS ? ', met' : ', MISSED'}), of which the grid's answer ${seconds(answered)}; ${counts?.split(';')[0]}`,
    );
  }

  // Frames of a diagonal scroll across the whole grid, one step a frame.
  const frames = await grid.evaluate(async (element) => {
    const steps = 120;
    const times: number[] = [];
    let last = performance.now();
    for (let s = 1; s <= steps; s++) {
      element.scrollTo(
        ((element.scrollWidth - element.clientWidth) * s) / steps,
        ((element.scrollHeight - element.clientHeight) * s) / steps,
      );
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const now = performance.now();
      times.push(now - last);
      last = now;
    }
    return times;
  });
  const byLength = sorted(frames);
  console.log(
    `scroll across the grid in ${frames.length} steps: frame median ${percentile(byLength, 50).toFixed(1)} ms, p95 ${percentile(byLength, 95).toFixed(1)} ms, longest ${byLength.at(-1)!.toFixed(1)} ms; ${await grid.locator('.mac-grid-cell').count()} cells in the page`,
  );
  const lastRow = (await grid.locator('.mac-grid-row-head').last().textContent()) ?? '';
  const far = grid.getByRole('button', { name: new RegExp(`^${lastRow} → `) }).last();
  await far.waitFor();
  const clicked = performance.now();
  await far.click();
  await page.locator('.ant-drawer-open').getByText('Formula', { exact: true }).first().waitFor();
  console.log(
    `a click on a cell of the last row (${lastRow}): its derivation shown in ${seconds(performance.now() - clicked)}`,
  );
  const heap = await page.evaluate(() => {
    const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
    return memory ? memory.usedJSHeapSize / 2 ** 20 : NaN;
  });
  console.log(`JS heap ${heap.toFixed(0)} MiB`);

  // The answer itself: its size per pair, and its time computed afresh against cached. A new
  // sign-in, since the browser's ended the first one.
  const { token: apiToken } = await signIn(server.url);
  const url = `${F}/mac-matrix/grid`;
  const timed = async (query: string) => {
    const started = performance.now();
    const res = await fetch(`${url}${query}`, { headers: { token: apiToken } });
    const body = (await res.json()) as { next: number[] };
    if (res.status !== 200) throw new Error(JSON.stringify(body).slice(0, 300));
    return { ms: performance.now() - started, pairs: body.next.length };
  };
  const asOf = `?asOf=${encodeURIComponent(new Date().toISOString())}`;
  const fresh = [await timed(asOf), await timed(asOf), await timed(asOf)];
  const cached = [await timed(''), await timed(''), await timed('')];
  const pairs = cached[0]!.pairs;
  console.log(
    `GET mac-matrix/grid, ${pairs.toLocaleString('en-US')} pairs: computed afresh median ${percentile(sorted(fresh.map((r) => r.ms)), 50).toFixed(0)} ms, from the cached state median ${percentile(sorted(cached.map((r) => r.ms)), 50).toFixed(0)} ms (3 each, fetch and parse included)`,
  );
  const sizes: string[] = [];
  for (const encoding of [undefined, 'gzip', 'br']) {
    const bytes = await bytesOf(url, apiToken, encoding);
    const perPair = bytes / pairs;
    sizes.push(
      `${encoding ?? 'identity'} ${(bytes / 2 ** 20).toFixed(1)} MiB = ${perPair.toFixed(1)} B/pair${encoding === undefined ? (perPair <= MAX_BYTES_PER_PAIR ? ` (at most ${MAX_BYTES_PER_PAIR}: met)` : ` (at most ${MAX_BYTES_PER_PAIR}: MISSED)`) : ''}`,
    );
  }
  console.log(`grid answer: ${sizes.join(', ')}`);
  console.log(
    `server RSS ${server.rssMiB().toFixed(0)} MiB (peak ${server.peakRssMiB().toFixed(0)} MiB)`,
  );
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
