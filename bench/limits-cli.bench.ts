/**
 * End-to-end benchmark of the limits command line (issue 3): a 1,000-product input on 1,000
 * equipment items written to a temporary file, then `npm run --silent limits -- --summary FILE`
 * timed from spawn to exit. Target: under 3 s. Also times the full document (with pairs).
 *   npx tsx bench/limits-cli.bench.ts
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { syntheticLimitsInput } from './limits-input.ts';

const root = join(import.meta.dirname, '..');
const file = join(mkdtempSync(join(tmpdir(), 'limits-bench-')), 'input-1000.json');
writeFileSync(file, JSON.stringify(syntheticLimitsInput(1_000, 1_000)));

// GNU time, where installed, reports the peak resident memory of the command line's processes.
const gnuTime = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

function time(label: string, args: string[]): number {
  const command = ['npm', 'run', '--silent', 'limits', '--', ...args];
  const start = performance.now();
  const result = gnuTime
    ? spawnSync(gnuTime, ['-f', 'maxrss=%M', ...command], {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 2 * 1024 * 1024 * 1024,
      })
    : spawnSync(command[0] ?? 'npm', command.slice(1), {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 2 * 1024 * 1024 * 1024,
      });
  const ms = performance.now() - start;
  const rss = /maxrss=(\d+)/.exec(result.stderr ?? '')?.[1];
  if (result.status !== 0) throw new Error(`${label}: exit ${result.status}\n${result.stdout}`);
  const doc = JSON.parse(result.stdout) as { pairs?: unknown[]; products: unknown[] };
  console.log(
    `${label.padEnd(28)} ${ms.toFixed(0).padStart(6)} ms  output ${(result.stdout.length / 1_048_576).toFixed(1)} MB, ` +
      `${doc.pairs ? `${doc.pairs.length} pairs, ` : ''}${doc.products.length} products` +
      (rss ? `, peak RSS ${(Number(rss) / 1024).toFixed(0)} MB` : ''),
  );
  return ms;
}

const runs = [0, 1, 2].map(() => time('--summary, 1,000 products', ['--summary', file]));
time('full document, 1,000 products', [file]);
const best = Math.min(...runs);
console.log(
  `target --summary < 3 s end to end: ${best < 3000 ? 'met' : 'NOT met'} (best ${best.toFixed(0)} ms)`,
);
