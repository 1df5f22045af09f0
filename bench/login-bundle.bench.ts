// Gzipped size of the JavaScript the Login screen loads, measured in Chromium against the built
// app: every script response until the screen is idle. Target: under 200 kB.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '#e2e/browser.ts';
import { startServerProcess } from './server-process.ts';

execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
const dataDir = mkdtempSync(join(tmpdir(), 'carryover-bench-'));
const server = await startServerProcess({ DATA_DIR: dataDir });
const browser = await launchBrowser();
try {
  const page = await browser.newPage();
  const scripts: { url: string; raw: number; gzip: number }[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.body();
    scripts.push({
      url: new URL(response.url()).pathname,
      raw: body.length,
      gzip: gzipSync(body, { level: 9 }).length,
    });
  });
  await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Log In' }).waitFor();
  scripts.sort((a, b) => b.gzip - a.gzip);
  for (const s of scripts)
    console.log(
      `${(s.gzip / 1024).toFixed(1).padStart(7)} kB gzip  ${(s.raw / 1024).toFixed(1).padStart(7)} kB raw  ${s.url}`,
    );
  const total = scripts.reduce((sum, s) => sum + s.gzip, 0);
  const raw = scripts.reduce((sum, s) => sum + s.raw, 0);
  console.log(
    `Login screen JavaScript: ${(total / 1024).toFixed(1)} kB gzip (${(raw / 1024).toFixed(1)} kB raw) in ${scripts.length} files (target < 200 kB)`,
  );
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
