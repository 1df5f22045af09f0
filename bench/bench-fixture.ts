// What the server benchmarks share: the administrator they sign in as, a generated facility
// workbook, sign-in, and running one measurement on PGlite and then on the PostgreSQL server.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { newPage } from '#e2e/browser.ts';

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const admin = { ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'Admin#12345' };

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A small seeded generator, so that every run measures the same facility. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1_664_525 + 1_013_904_223) >>> 0) / 2 ** 32;
}

export interface FacilitySize {
  actives: number;
  products: number;
  equipment: number;
  /** Production lines, each a train of 5–30 items and its share of the products; 0 for none. */
  productions: number;
  seed: number;
  /** Whether the Actives sheet carries a minimum therapeutic dose (default true). */
  minimumDose?: boolean;
}

/** The 1,000-product facility of the export and evaluate benches: 100 lines, each a train of
 * 5–30 items and 10 products. */
export const THOUSAND_PRODUCTS: FacilitySize = {
  actives: 1_000,
  products: 1_000,
  equipment: 1_000,
  productions: 100,
  seed: 11,
};

/**
 * THOUSAND_PRODUCTS's shape at the size a bench is asked for (PRODUCTS=5000 in its environment):
 * as many actives and items as products, lines of 10 products.
 */
export function facilityOfSize(products = Number(process.env.PRODUCTS ?? 1_000)): FacilitySize {
  return {
    ...THOUSAND_PRODUCTS,
    products,
    actives: products,
    equipment: products,
    productions: products / 10,
  };
}

/** The 10,000-row workbook of the import benches: actives, products and equipment only. */
export const TEN_THOUSAND_ROWS: FacilitySize = {
  actives: 4000,
  products: 3000,
  equipment: 3000,
  productions: 0,
  seed: 7,
};

/** A facility as a master-data workbook for POST {F}/master. */
export async function facilityWorkbook(size: FacilitySize): Promise<Buffer> {
  const next = rng(size.seed);
  const withDose = size.minimumDose ?? true;
  const wb = new ExcelJS.Workbook();
  const actives = wb.addWorksheet('Actives');
  actives.addRow(
    withDose
      ? [
          'Name',
          'PDE/ADE',
          'PDE/ADE unit',
          'Minimum therapeutic dose',
          'Minimum therapeutic dose unit',
        ]
      : ['Name', 'PDE/ADE', 'PDE/ADE unit'],
  );
  for (let i = 0; i < size.actives; i += 1) {
    const pde = Number((0.001 + next()).toFixed(4));
    actives.addRow(
      withDose
        ? [`Active ${i}`, pde, 'mg', Number((1 + next() * 100).toFixed(2)), 'mg']
        : [`Active ${i}`, pde, 'mg'],
    );
  }
  const products = wb.addWorksheet('Products');
  products.addRow([
    'Name',
    'Largest daily dose',
    'Largest daily dose unit',
    'Minimum batch size',
    'Minimum batch size unit',
    'Actives',
  ]);
  for (let i = 0; i < size.products; i += 1) {
    products.addRow([
      `Product ${i}`,
      Math.round(100 + next() * 900),
      'mg',
      Math.round(20 + next() * 300),
      'kg',
      `Active ${i % size.actives} | 10 mg`,
    ]);
  }
  const equipment = wb.addWorksheet('Equipment');
  equipment.addRow(['Name', 'Surface area', 'Surface area unit']);
  for (let i = 0; i < size.equipment; i += 1) {
    equipment.addRow([`Item ${i}`, Number((0.5 + next() * 20).toFixed(2)), 'sqm']);
  }
  if (size.productions > 0) {
    const productions = wb.addWorksheet('Productions');
    productions.addRow(['Name']);
    for (let l = 0; l < size.productions; l += 1) productions.addRow([`Line ${l}`]);
    const matrix = wb.addWorksheet('Production-Equipment matrix');
    matrix.addRow(['Production', ...Array.from({ length: size.equipment }, (_, i) => `Item ${i}`)]);
    for (let l = 0; l < size.productions; l += 1) {
      const train = new Set(
        Array.from({ length: 5 + Math.floor(next() * 26) }, () =>
          Math.floor(next() * size.equipment),
        ),
      );
      matrix.addRow([
        `Line ${l}`,
        ...Array.from({ length: size.equipment }, (_, i) => (train.has(i) ? 'X' : null)),
      ]);
    }
    const mappings = wb.addWorksheet('mappings');
    mappings.addRow(['Production', 'Product']);
    for (let i = 0; i < size.products; i += 1) {
      mappings.addRow([`Line ${i % size.productions}`, `Product ${i}`]);
    }
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Signs the administrator in; `facility(id)` is the base URL of that facility's routes. */
export async function signIn(serverUrl: string) {
  const login = await fetch(`${serverUrl}/api/v2/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: admin.ADMIN_EMAIL, password: admin.ADMIN_PASSWORD }),
  });
  const { token, user } = (await login.json()) as { token: string; user: { planId: number } };
  const facility = (id: number) => `${serverUrl}/api/v2/plans/${user.planId}/facilities/${id}`;
  return { token, facility };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a bench reads what it prints
export type BenchBody = Record<string, any>;

/** A JSON call below a facility's URL (`path` starts with '/'); anything but 200 throws. */
export function facilityCaller(facilityUrl: string, token: string) {
  return async (method: string, path: string, body?: unknown): Promise<BenchBody> => {
    const res = await fetch(`${facilityUrl}${path}`, {
      method,
      headers: { token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as BenchBody;
    if (res.status !== 200)
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 500)}`);
    return json;
  };
}

/** Imports a workbook into a facility and returns the import report and its duration. */
export async function uploadWorkbook(facilityUrl: string, token: string, workbook: Buffer) {
  const started = performance.now();
  const res = await fetch(`${facilityUrl}/master?fileName=bench.xlsx`, {
    method: 'POST',
    headers: { token, 'content-type': XLSX },
    body: new Uint8Array(workbook),
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`import failed: ${JSON.stringify(body).slice(0, 500)}`);
  return { body, ms: performance.now() - started };
}

/**
 * Builds the server, then runs `measure` on a fresh PGlite directory (unless SKIP_PGLITE=1) and
 * on a fresh database of the PostgreSQL server at 127.0.0.1:5432 (or BENCH_PG_URL) if one answers;
 * KEEP_DB=1 keeps that database.
 */
export async function onEachDatabase(
  measure: (label: string, env: Record<string, string>) => Promise<void>,
  postgresEnv: Record<string, string> = {},
): Promise<void> {
  execFileSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' });
  if (process.env.SKIP_PGLITE !== '1') {
    const dataDir = mkdtempSync(join(tmpdir(), 'carryover-bench-'));
    try {
      await measure('PGlite', { DATA_DIR: dataDir });
    } finally {
      if (process.env.KEEP_DB === '1') console.log(`PGlite: data folder ${dataDir} kept`);
      else rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const base = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
  const client = new pg.Client({ connectionString: `${base}/postgres` });
  try {
    await client.connect();
  } catch {
    console.log('PostgreSQL: no server at 127.0.0.1:5432, skipped');
    return;
  }
  // BENCH_DB_PREFIX keeps the databases of benches run side by side on one server apart.
  const name = `${process.env.BENCH_DB_PREFIX ?? 'carryover_bench'}_${Date.now()}`;
  await client.query(`create database ${name}`);
  try {
    await measure('PostgreSQL', { DATABASE_URL: `${base}/${name}`, ...postgresEnv });
  } finally {
    // KEEP_DB=1 leaves the database for a look at its plans afterwards (EXPLAIN, psql).
    if (process.env.KEEP_DB === '1') console.log(`PostgreSQL: database ${name} kept`);
    else await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  }
}

/** The bytes of an answer as sent (fetch would inflate them). */
export function bytesOf(url: string, token: string, encoding?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { headers: { token, ...(encoding ? { 'accept-encoding': encoding } : {}) } },
      (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => resolve(n));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * A page of the built app with the administrator signed in to a facility, waiting as long as a
 * 1,000-product facility needs.
 */
export async function signedInPage(
  browser: Browser,
  serverUrl: string,
  facilityName: string,
): Promise<Page> {
  const { page } = await newPage(browser, serverUrl);
  page.setDefaultTimeout(300_000);
  await page.goto('/');
  await page.getByLabel('Email/Employee ID').fill(admin.ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(admin.ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByRole('button', { name: facilityName }).click();
  await page.getByRole('button', { name: 'Logout' }).waitFor();
  return page;
}

/**
 * What anchoring and signature binding cost once a load was written: the anchor file's lines
 * and size so far, an anchor written now (the rows since the last one) and verify, which
 * recomputes the chains, compares them with every anchored row and checks every signature.
 */
export async function anchorFigures(label: string, serverUrl: string, token: string, dir: string) {
  const file = join(dir, 'audit-anchors.jsonl');
  const lines = () => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').length : 0);
  const bytes = () => (existsSync(file) ? statSync(file).size : 0);
  console.log(`${label}: anchor file so far: ${lines()} lines, ${(bytes() / 1024).toFixed(0)} KiB`);
  const call = async (method: string, path: string) => {
    const t = performance.now();
    const res = await fetch(`${serverUrl}${path}`, { method, headers: { token } });
    const body = (await res.json()) as BenchBody;
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status}`);
    return { body, ms: performance.now() - t };
  };
  const before = bytes();
  const anchor = await call('POST', '/api/v2/audit_logs/anchor');
  console.log(
    `${label}: POST audit_logs/anchor: ${anchor.ms.toFixed(0)} ms, ${((bytes() - before) / 1024).toFixed(0)} KiB appended`,
  );
  const verify = await call('GET', '/api/v2/audit_logs/verify');
  const rows = (verify.body.chains as { rows: number }[]).reduce((n, c) => n + c.rows, 0);
  console.log(
    `${label}: GET audit_logs/verify (${rows} audit rows, ${verify.body.signatures.checked} signatures, intact ${verify.body.intact}): ${verify.ms.toFixed(0)} ms`,
  );
}
