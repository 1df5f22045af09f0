/**
 * In-process benchmark of the MAC matrix (issues 3 and 16): 500, 1,000 and 2,000 products on 1,000
 * equipment items with trains of 5–30 items. Target: 2,000 products (4 million ordered pairs)
 * in under 100 ms and 1 GB. Prints pairs per second, how time grows with the product count, and
 * the engine's time as a ratio to its anchor (`limits-anchor.ts`: the same algorithm as one plain
 * loop) timed in the same run, runs of the two taking turns. The ratio is of the best CPU times
 * (process.cpuUsage), which a shared, busy machine disturbs far less than wall time.
 *   npm run bench:limits
 */
import { loadavg } from 'node:os';
import { compileLimits } from '#core/limits/compile.ts';
import { parseLimitsInput } from '#core/limits/contract-input.ts';
import { runMatrix } from '#core/limits/matrix.ts';
import { plainMatrix } from './limits-anchor.ts';
import { syntheticLimitsInput } from './limits-input.ts';

const EQUIPMENT = 1_000;
const SIZES = [500, 1_000, 2_000];
const REPEATS = 9;

function mb(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(0)} MB`;
}

interface Row {
  products: number;
  orderedPairs: number;
  sharingPairs: number;
  compileMs: number;
  firstMs: number;
  bestMs: number;
  bestCpuMs: number;
  anchorBestMs: number;
  anchorBestCpuMs: number;
}

/** Runs `run` once; its wall time and the CPU time of the process meanwhile, in ms. */
function timed<T>(run: () => T): { result: T; ms: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = run();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { result, ms, cpuMs: (used.user + used.system) / 1000 };
}

/** The anchor must compute what the engine computes, or the ratio means nothing. */
function checkSame(engine: ReturnType<typeof runMatrix>, anchor: ReturnType<typeof plainMatrix>) {
  const same = (a: ArrayLike<number>, b: ArrayLike<number>) =>
    a.length === b.length && Array.from(a).every((v, i) => Object.is(v, b[i]));
  if (
    engine.pairCount !== anchor.pairCount ||
    !same(engine.lowestMaco, anchor.lowestMaco) ||
    !same(engine.lowestSal, anchor.lowestSal) ||
    !same(engine.worstNext, anchor.worstNext) ||
    !same(engine.equipmentLowestSal, anchor.equipmentLowestSal) ||
    !same(engine.equipmentGoverningPrevious, anchor.equipmentGoverningPrevious) ||
    !same(engine.equipmentGoverningNext, anchor.equipmentGoverningNext)
  ) {
    throw new Error('the anchor and the engine disagree');
  }
}

const rows: Row[] = [];
let peakRss = process.memoryUsage().rss;
for (const size of SIZES) {
  const parsed = parseLimitsInput(syntheticLimitsInput(size, EQUIPMENT));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors.slice(0, 3)));
  const t = performance.now();
  const compiled = compileLimits(parsed.input);
  const compileMs = performance.now() - t;
  const engine: { ms: number; cpuMs: number }[] = [];
  const anchor: { ms: number; cpuMs: number }[] = [];
  let sharingPairs = 0;
  let orderedPairs = 0;
  for (let i = 0; i < REPEATS; i++) {
    const run = timed(() => runMatrix(compiled));
    const plain = timed(() => plainMatrix(compiled));
    if (i === 0) checkSame(run.result, plain.result);
    engine.push(run);
    anchor.push(plain);
    sharingPairs = run.result.pairCount;
    orderedPairs = run.result.pairsEvaluated;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  rows.push({
    products: size,
    orderedPairs,
    sharingPairs,
    compileMs,
    firstMs: engine[0]?.ms ?? 0,
    bestMs: Math.min(...engine.map((r) => r.ms)),
    bestCpuMs: Math.min(...engine.map((r) => r.cpuMs)),
    anchorBestMs: Math.min(...anchor.map((r) => r.ms)),
    anchorBestCpuMs: Math.min(...anchor.map((r) => r.cpuMs)),
  });
}

console.log(
  `MAC matrix on ${EQUIPMENT} equipment items, trains of 5-30 items (${REPEATS} runs each; load average ${loadavg()[0]?.toFixed(1)})`,
);
console.log(
  'products  ordered pairs  sharing pairs  compile ms  first ms  best ms  best cpu ms  ordered pairs/s  time ×  anchor best ms  anchor cpu ms  × anchor',
);
let previous: Row | undefined;
for (const r of rows) {
  const growth = previous ? `${(r.bestMs / previous.bestMs).toFixed(2)}` : '-';
  console.log(
    [
      String(r.products).padStart(8),
      String(r.orderedPairs).padStart(14),
      String(r.sharingPairs).padStart(14),
      r.compileMs.toFixed(1).padStart(11),
      r.firstMs.toFixed(1).padStart(9),
      r.bestMs.toFixed(1).padStart(8),
      r.bestCpuMs.toFixed(1).padStart(12),
      Math.round(r.orderedPairs / (r.bestMs / 1000))
        .toLocaleString('en-US')
        .padStart(16),
      growth.padStart(7),
      r.anchorBestMs.toFixed(1).padStart(15),
      r.anchorBestCpuMs.toFixed(1).padStart(14),
      (r.bestCpuMs / r.anchorBestCpuMs).toFixed(2).padStart(9),
    ].join(' '),
  );
  previous = r;
}
const largest = rows[rows.length - 1];
console.log(
  `time grows with the pairs that share equipment: ×2 products ≈ ×4 time here; peak RSS ${mb(peakRss)}`,
);
if (largest) {
  // Judged on CPU time: the time the loop needs of one core, which a busy machine does not inflate.
  const ok = largest.bestCpuMs < 100 && peakRss < 1024 * 1_048_576;
  console.log(
    `target 2,000 products < 100 ms and < 1 GB: ${ok ? 'met' : 'NOT met'} (${largest.bestCpuMs.toFixed(0)} ms best CPU; wall ${largest.firstMs.toFixed(0)} ms first run, ${largest.bestMs.toFixed(0)} ms best)`,
  );
  console.log(
    `engine ÷ anchor (the same algorithm as one plain loop, same run, best CPU times): ${(largest.bestCpuMs / largest.anchorBestCpuMs).toFixed(2)}×`,
  );
}
