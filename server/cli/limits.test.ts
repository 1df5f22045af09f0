import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { differences } from '#core/limits/golden/compare.ts';

/**
 * The command line of contracts/limits.md, run as a validation team runs it: a child process,
 * JSON on standard output, the exit status. Every published contract case goes through it.
 */
const root = join(import.meta.dirname, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const cli = join(root, 'server', 'cli', 'limits.ts');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

const limits = (args: string[], stdin?: string) => run(tsx, [cli, ...args], stdin);

interface ContractCase {
  input: unknown;
  expected?: Record<string, unknown>;
  expectedErrorProperty?: string;
  exitCode: 0 | 2;
}

const dir = join(root, 'core', 'limits', 'golden', 'contract');
const work = mkdtempSync(join(tmpdir(), 'limits-cli-'));
const cases = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => {
    const c = JSON.parse(readFileSync(join(dir, f), 'utf8')) as ContractCase;
    const file = join(work, f);
    writeFileSync(file, JSON.stringify(c.input));
    return { name: f, file, c };
  });

describe('limits command line', () => {
  it.concurrent.each(cases)('$name', async ({ file, c }) => {
    const full = await limits([file]);
    expect(full.code).toBe(c.exitCode);
    const doc = JSON.parse(full.stdout) as Record<string, unknown>;
    if (c.exitCode === 0) {
      expect(differences(doc, c.expected, 1e-6)).toEqual([]);
      const summary = await limits(['--summary', file]);
      expect(summary.code).toBe(0);
      const { pairs: _pairs, ...expected } = c.expected ?? {};
      expect(differences(JSON.parse(summary.stdout), expected, 1e-6)).toEqual([]);
    } else {
      expect(doc).toMatchObject({ errName: 'DataValidationError', name: 'DataValidationError' });
      expect(typeof doc.message).toBe('string');
      const errors = doc.errors as { property: string; constraints: Record<string, string> }[];
      expect(errors.map((e) => e.property)).toContain(c.expectedErrorProperty);
      expect(doc).not.toHaveProperty('pairs');
      expect(doc).not.toHaveProperty('products');
    }
  });

  it('reads standard input when the file is -', async () => {
    const first = cases.find((x) => x.c.exitCode === 0);
    if (!first) throw new Error('no computation case');
    const result = await limits(['--summary', '-'], JSON.stringify(first.c.input));
    expect(result.code).toBe(0);
    const { pairs: _pairs, ...expected } = first.c.expected ?? {};
    expect(differences(JSON.parse(result.stdout), expected, 1e-6)).toEqual([]);
  });

  it('accepts a byte-order mark and --summary after the file name', async () => {
    const first = cases.find((x) => x.c.exitCode === 0);
    if (!first) throw new Error('no computation case');
    const file = join(work, 'bom.json');
    writeFileSync(file, `\uFEFF${JSON.stringify(first.c.input)}`);
    const result = await limits([file, '--summary']);
    expect(result.code).toBe(0);
    const { pairs: _pairs, ...expected } = first.c.expected ?? {};
    expect(differences(JSON.parse(result.stdout), expected, 1e-6)).toEqual([]);
  });

  it('answers input that is not JSON with exit 2 and a DataValidationError', async () => {
    const result = await limits(['-'], '{ "products": [');
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({
      errName: 'DataValidationError',
      errors: [{ property: 'input' }],
    });
  });

  it('answers a missing file and a missing argument with exit 2', async () => {
    const missing = await limits([join(work, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toMatchObject({ errName: 'DataValidationError' });
    const none = await limits([]);
    expect(none.code).toBe(2);
    expect(JSON.parse(none.stdout)).toMatchObject({ errName: 'DataValidationError' });
  });

  it('runs through the npm script exactly as the contract writes it', async () => {
    const first = cases.find((x) => x.c.exitCode === 0);
    if (!first) throw new Error('no computation case');
    const result = await run('npm', ['run', '--silent', 'limits', '--', first.file]);
    expect(result.code).toBe(0);
    expect(differences(JSON.parse(result.stdout), first.c.expected, 1e-6)).toEqual([]);
  });
});
