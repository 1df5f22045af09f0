// The MAC matrix screen at scale, in a production build served by `npm start` on fresh PGlite:
// - a 1,000-product facility imported as a generated workbook through POST {F}/master,
// - in headless Chromium: sign in, open the MAC matrix page, and time until the pairs table is
//   on screen and until a click on a number opens its derivation (the table is interactive),
// - export and import times of the demo facility's workbook (seedDemo in an in-process test
//   server, exported there, then imported into and exported from the bench server).
// Run: npx tsx bench/matrix-screen.bench.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchBrowser } from '#e2e/browser.ts';
import { migrate } from '#server/db/migrate.ts';
import { openPglite } from '#server/db/pglite-db.ts';
import { seedDemo } from '#server/cli/seed-demo.ts';
import { seedFirstStart } from '#server/db/seed.ts';
import { exportMasterData } from '#server/modules/master/master-export.ts';
import { admin, facilityWorkbook, signIn, signedInPage, uploadWorkbook } from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';

const FACILITY = 'Oral Solid Dosage Plant';

/**
 * The demo facility's workbook: seedDemo on an in-memory PGlite set up as on first start, then
 * the export the server's GET {F}/master runs (the test server needs vitest, so not that).
 */
async function demoWorkbook(): Promise<Buffer> {
  const db = await openPglite({});
  try {
    await migrate(db);
    await seedFirstStart(db, admin);
    const [f] = await db.query<{ id: number }>('select id from facilities order by id limit 1');
    await seedDemo(db, f!.id);
    return await exportMasterData(db, f!.id);
  } finally {
    await db.close();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
execFileSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' });
const demo = await demoWorkbook();
// The 1,000-product facility of bench/master-data.bench.ts, without minimum therapeutic doses.
const big = await facilityWorkbook({
  actives: 1000,
  products: 1000,
  equipment: 1000,
  productions: 100,
  seed: 7,
  minimumDose: false,
});
const dataDir = mkdtempSync(join(tmpdir(), 'carryover-matrix-screen-'));
const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'true', DATA_DIR: dataDir });
const browser = await launchBrowser();
try {
  const { token, facility: F } = await signIn(server.url);
  const upload = (facility: number, buffer: Buffer) => uploadWorkbook(F(facility), token, buffer);
  const download = async (facility: number) => {
    const started = performance.now();
    const res = await fetch(`${F(facility)}/master`, { headers: { token } });
    const bytes = (await res.arrayBuffer()).byteLength;
    return { bytes, ms: performance.now() - started };
  };

  // The demo facility's workbook: first import (all created), again (all unchanged), export.
  const first = await upload(2, demo);
  const again = await upload(2, demo);
  const exports = [await download(2), await download(2), await download(2)];
  console.log(
    `demo workbook (${(demo.length / 1024).toFixed(0)} KiB, ${String(first.body.rows)} rows): import into an empty facility ${seconds(first.ms)}, re-import (unchanged) ${seconds(again.ms)}, export median ${seconds(median(exports.map((e) => e.ms)))} of 3`,
  );

  const imported = await upload(1, big);
  console.log(
    `1,000-product workbook (${String(imported.body.rows)} rows): import ${seconds(imported.ms)}`,
  );

  const page = await signedInPage(browser, server.url, FACILITY);

  // Run 1 opens the page from the navigation (its chunk not loaded yet); runs 2–3 reload it.
  for (let run = 1; run <= 3; run += 1) {
    const started = performance.now();
    if (run === 1) {
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'MAC matrix' })
        .click();
    } else {
      await page.reload();
    }
    const firstLink = page.locator('.matrix-link').first();
    await firstLink.waitFor();
    const shown = performance.now() - started;
    const total = await page
      .getByText(/^[\d,]+ pairs$/)
      .first()
      .textContent();
    await firstLink.click();
    await page.locator('.ant-drawer-open').waitFor();
    const interactive = performance.now() - started;
    const heap = await page.evaluate(() => {
      const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
      return memory ? memory.usedJSHeapSize / 2 ** 20 : NaN;
    });
    console.log(
      `MAC matrix page, 1,000 products (${total}), run ${run}: pairs table shown ${seconds(shown)}, a click answered ${seconds(interactive)}; JS heap ${heap.toFixed(0)} MiB`,
    );
    await page.keyboard.press('Escape');
  }

  // What-if on the same page: the limits input, then a halved batch size recomputed in the page.
  await page.locator('.ant-drawer-open').waitFor({ state: 'detached' });
  const whatIfStarted = performance.now();
  await page.getByRole('button', { name: 'What if…' }).click();
  const panel = page.locator('.ant-drawer-open');
  const item = panel.getByLabel('Item', { exact: true });
  await item.waitFor();
  const inputLoaded = performance.now() - whatIfStarted;
  await item.click();
  await item.fill('Product 0');
  await page.locator('.ant-select-item-option[title="Product 0"]:visible').click();
  const value = panel.getByLabel('New value', { exact: true });
  const current = Number(await value.inputValue());
  await value.fill(String(current / 2));
  const tried = performance.now();
  await panel.getByRole('button', { name: 'Try this change' }).click();
  const status = panel.getByRole('region', { name: 'What-if result' }).getByRole('status');
  await status.waitFor();
  const recomputed = performance.now() - tried;
  console.log(
    `what-if, 1,000 products: panel with the limits input ${seconds(inputLoaded)}; halving Product 0's batch size recomputed and listed in ${seconds(recomputed)} (${(await status.textContent())?.trim()})`,
  );
  console.log(
    `server RSS ${server.rssMiB().toFixed(0)} MiB (peak ${server.peakRssMiB().toFixed(0)} MiB)`,
  );
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
