// Gzipped size of the JavaScript the Login screen loads, measured in Chromium against the built
// app: every script response until the screen is idle. Target: under 200 kB, and at most 1.1× the
// antd minimum (issue 34): a one-form antd app (antd-minimum/, the same React and antd) built by
// Vite as the client is and measured the same way.
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { launchBrowser } from '#e2e/browser.ts';
import { startServerProcess } from './server-process.ts';

interface Script {
  url: string;
  raw: number;
  gzip: number;
}

/** Every script the page at `url` loads until `button` shows and the network is idle. */
async function scriptsOf(browser: Browser, url: string, button: string): Promise<Script[]> {
  const page = await browser.newPage();
  const scripts: Script[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    const body = await response.body();
    scripts.push({
      url: new URL(response.url()).pathname,
      raw: body.length,
      gzip: gzipSync(body, { level: 9 }).length,
    });
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: button }).waitFor();
  await page.close();
  return scripts.sort((a, b) => b.gzip - a.gzip);
}

function print(what: string, scripts: Script[]): number {
  for (const s of scripts)
    console.log(
      `${(s.gzip / 1024).toFixed(1).padStart(7)} kB gzip  ${(s.raw / 1024).toFixed(1).padStart(7)} kB raw  ${s.url}`,
    );
  const total = scripts.reduce((sum, s) => sum + s.gzip, 0);
  const raw = scripts.reduce((sum, s) => sum + s.raw, 0);
  console.log(
    `${what}: ${(total / 1024).toFixed(1)} kB gzip (${(raw / 1024).toFixed(1)} kB raw) in ${scripts.length} files`,
  );
  return total;
}

/** The anchor built by Vite with the client's plugin and options, served as static files. */
async function serveAnchor(outDir: string) {
  await build({
    configFile: false,
    root: join(import.meta.dirname, 'antd-minimum'),
    plugins: [react()],
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, sourcemap: false },
  });
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const file = join(outDir, normalize(path === '/' ? '/index.html' : path));
    try {
      const body = readFileSync(file);
      response.writeHead(200, {
        'content-type': types[extname(file)] ?? 'application/octet-stream',
      });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
const dataDir = mkdtempSync(join(tmpdir(), 'carryover-bench-'));
const anchorDir = mkdtempSync(join(tmpdir(), 'carryover-antd-minimum-'));
const server = await startServerProcess({ DATA_DIR: dataDir });
const anchor = await serveAnchor(anchorDir);
const browser = await launchBrowser();
try {
  const login = print(
    'Login screen JavaScript',
    await scriptsOf(browser, `${server.url}/`, 'Log In'),
  );
  const minimum = print('antd minimum (one form)', await scriptsOf(browser, anchor.url, 'Log In'));
  console.log(
    `Login screen ${(login / 1024).toFixed(1)} kB gzip (target < 200 kB), antd minimum ${(minimum / 1024).toFixed(1)} kB: ${(login / minimum).toFixed(2)}× (target ≤ 1.1×)`,
  );
} finally {
  await browser.close();
  await server.stop();
  anchor.server.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(anchorDir, { recursive: true, force: true });
}
