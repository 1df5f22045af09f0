import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QualificationPack } from '#core/qualification/pack.ts';
import { readChecksumList } from '#server/db/migration-checksums.ts';
import { readPdfText } from '#server/test/read-pdf-text.ts';
import { serverModuleArgs } from '#server/test/server-process.ts';
import { startFacilityTestServer, type FacilityTestServer } from '#server/test/test-server.ts';

/**
 * The qualification pack (issue 33) as a site makes it: `npm run qualification -- --out DIR`, a
 * child process, on a fresh install and against a running instance with a broken case passed in.
 */
const root = join(import.meta.dirname, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const cli = join(root, 'server', 'cli', 'qualification.ts');
const golden = join(root, 'core', 'limits', 'golden');

/**
 * The CLI in a child process: as `npm run qualification` runs it (tsx over the sources), or from
 * the run's build of it, which starts without compiling the server again (the runs after the
 * first, whose subject is what the pack says rather than how the command starts).
 */
function runPack(
  args: string[],
  { built = false } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [command, entry] = built
    ? [process.execPath, serverModuleArgs('server/cli/qualification.ts')]
    : [tsx, [cli]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...entry, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function firstPage(pdf: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)));
  return (text[0] ?? '').replace(/\s+/g, ' ');
}

function readPack(dir: string) {
  const pack = JSON.parse(
    readFileSync(join(dir, 'qualification-pack.json'), 'utf8'),
  ) as QualificationPack;
  const pdf = new Uint8Array(readFileSync(join(dir, 'qualification-pack.pdf')));
  return { pack, pdf };
}

const countJson = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.json')).length;
const workedCount = (
  JSON.parse(readFileSync(join(golden, 'worked-examples.json'), 'utf8')) as { cases: unknown[] }
).cases.length;

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'carryover-pack-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('npm run qualification on a fresh install', () => {
  it('passes every case on the engine and through the API, traced, as JSON and PDF', async () => {
    const out = tempDir();
    const run = await runPack(['--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Qualification passed: (\d+) of \1 cases passed/);
    const { pack, pdf } = readPack(out);

    expect(pack.outcome).toBe('passed');
    const own = countJson(join(golden, 'own'));
    const contract = countJson(join(golden, 'contract'));
    expect(own).toBeGreaterThanOrEqual(3);
    expect(pack.summary).toEqual({
      cases: workedCount + contract + own,
      passed: workedCount + contract + own,
      failed: 0,
      failedCases: [],
    });
    for (const set of ['worked', 'contract', 'own'] as const)
      expect(pack.operational.some((r) => r.set === set)).toBe(true);
    for (const r of pack.operational) {
      expect(r.engine.pass && r.api.pass && r.pass, `${r.set}/${r.id}`).toBe(true);
      expect(r.trace.requirement.length, `${r.id} requirement`).toBeGreaterThan(10);
      expect(r.trace.guideline.length, `${r.id} guideline`).toBeGreaterThan(10);
      expect(r.expected).toBeTruthy();
    }
    // The API answered, not the CLI's own engine twice: its answers came over HTTP as JSON.
    const g02 = pack.operational.find((r) => r.id === 'G02-ld50-published-error')!;
    expect(g02.api.answer.MACO).toBeCloseTo(2500, 6);
    expect(pack.instance).toMatch(/^a fresh install of this code base at http:\/\/127\.0\.0\.1:/);

    const install = pack.installation;
    expect(install.problems).toEqual([]);
    expect(install.application.version).toBe(
      (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version,
    );
    expect(install.node).toBe(process.version);
    expect(install.database.version).toMatch(/^PostgreSQL \d+/);
    const listed = readChecksumList();
    expect(install.migrations.length).toBe(listed.size);
    for (const m of install.migrations) {
      expect(m.sha256).toBe(listed.get(m.name));
      expect(m.applied).toBe(true);
    }
    const config = new Map(install.configuration.map((c) => [c.name, c.value]));
    expect(config.get('ADMIN_PASSWORD')).toBe('•••••• (set)');
    expect(config.get('SETTINGS_SECRET_KEY')).toBe('not set');
    expect(install.configuration.map((c) => c.value).join(' ')).not.toMatch(/Q[\w-]{16}#7a/);
    const pdfmake = install.dependencies.find((d) => d.name === 'pdfmake');
    expect(pdfmake?.integrity).toMatch(/^sha512-/);
    expect(pdfmake?.dev).toBe(false);

    const page1 = await firstPage(pdf);
    expect(page1).toContain(`QUALIFICATION PASSED: all ${pack.summary.cases} cases passed`);
    const { text } = await readPdfText(pdf);
    const folded = text.replace(/\s+/g, ' ');
    expect(folded).toContain('Installation report');
    expect(folded).toContain('Operational report');
    expect(folded).toContain('own/own-002');
    expect(folded).toContain('Limits contract, Rules');
    expect(folded).toContain(pdfmake!.integrity!.slice(0, 20));
  }, 400_000);
});

describe('npm run qualification against a running instance, with a broken case', () => {
  let t: FacilityTestServer;
  beforeAll(async () => {
    t = await startFacilityTestServer();
  });
  afterAll(() => t.server.close());

  const F = () => `/api/v2/plans/${t.planId}/facilities/${t.facilityId}/qualification`;

  it('refuses the instance calls without a session, and a case that carries nothing', async () => {
    expect((await t.server.request('GET', `${F()}/installation`)).status).toBe(401);
    const bad = await t.server.request('POST', `${F()}/answers`, {
      token: t.token,
      body: {
        cases: [{ set: 'own', id: 'x', title: 'x', trace: { requirement: '', guideline: '' } }],
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errName).toBe('DataValidationError');
  });

  it('says so on its first page and exits non-zero', async () => {
    const good = JSON.parse(readFileSync(join(golden, 'own', 'own-002.json'), 'utf8')) as {
      expected: { pairs: { maco: { value: number } }[] };
    };
    // A wrong expectation: the governing MACO of A -> B is 1000 mg, not 100.
    good.expected.pairs[0]!.maco.value = 100;
    const cases = tempDir();
    const broken = join(cases, 'broken.json');
    writeFileSync(broken, JSON.stringify(good));
    const out = tempDir();
    const run = await runPack(
      [
        '--out',
        out,
        '--url',
        t.server.url,
        '--plan',
        String(t.planId),
        '--facility',
        String(t.facilityId),
        '--token',
        t.token,
        '--cases',
        broken,
      ],
      { built: true },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^Qualification failed: .*failed: site\/broken/);
    const { pack, pdf } = readPack(out);
    expect(pack.outcome).toBe('failed');
    expect(pack.summary.failed).toBe(1);
    expect(pack.summary.failedCases).toEqual(['site/broken']);
    const result = pack.operational.find((r) => r.id === 'broken')!;
    expect(result.pass).toBe(false);
    expect(result.engine.problems).toEqual(['document.pairs[0].maco.value: 1000 ≠ 100']);
    expect(result.api.problems).toEqual(['document.pairs[0].maco.value: 1000 ≠ 100']);
    expect(pack.instance).toBe(`${t.server.url} (plan ${t.planId}, facility ${t.facilityId})`);

    const page1 = await firstPage(pdf);
    expect(page1).toContain(`QUALIFICATION FAILED: 1 of ${pack.summary.cases} cases failed`);
    expect(page1).toContain('Failed: site/broken');
    const { text } = await readPdfText(pdf);
    expect(text.replace(/\s+/g, ' ')).toContain('Pairs 1 · Maco · Value: 1000 ≠ 100');
  }, 400_000);

  it('refuses to run without --out, and stops at a case file that is not JSON', async () => {
    const usage = await runPack([], { built: true });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^usage: qualification --out DIR/);
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.json'), '{ not json');
    const bad = await runPack(['--out', dir, '--cases', join(dir, 'bad.json')], { built: true });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/JSON/);
  }, 60_000);
});
