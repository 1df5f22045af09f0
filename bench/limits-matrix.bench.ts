/**
 * In-process benchmark of the MAC matrix (issue 3): 500, 1,000 and 2,000 products on 1,000
 * equipment items with trains of 5–30 items. Target: 2,000 products (4 million ordered pairs)
 * in under 1 s and 1 GB. Prints pairs per second and how time grows with the product count.
 *   npm run bench:limits
 */
import { compileLimits } from '../core/limits/compile.ts';
import { parseLimitsInput } from '../core/limits/contract-input.ts';
import { runMatrix } from '../core/limits/matrix.ts';
import { syntheticLimitsInput } from './limits-input.ts';

const EQUIPMENT = 1_000;
const SIZES = [500, 1_000, 2_000];
const REPEATS = 5;

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
}

const rows: Row[] = [];
let peakRss = process.memoryUsage().rss;
for (const size of SIZES) {
  const parsed = parseLimitsInput(syntheticLimitsInput(size, EQUIPMENT));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors.slice(0, 3)));
  let t = performance.now();
  const compiled = compileLimits(parsed.input);
  const compileMs = performance.now() - t;
  const times: number[] = [];
  let sharingPairs = 0;
  let orderedPairs = 0;
  for (let i = 0; i < REPEATS; i++) {
    t = performance.now();
    const summary = runMatrix(compiled);
    times.push(performance.now() - t);
    sharingPairs = summary.pairCount;
    orderedPairs = summary.pairsEvaluated;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  rows.push({
    products: size,
    orderedPairs,
    sharingPairs,
    compileMs,
    firstMs: times[0] ?? 0,
    bestMs: Math.min(...times),
  });
}

console.log(
  `MAC matrix on ${EQUIPMENT} equipment items, trains of 5-30 items (${REPEATS} runs each)`,
);
console.log(
  'products  ordered pairs  sharing pairs  compile ms  first ms  best ms  ordered pairs/s  time ×',
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
      Math.round(r.orderedPairs / (r.bestMs / 1000))
        .toLocaleString('en-US')
        .padStart(16),
      growth.padStart(7),
    ].join(' '),
  );
  previous = r;
}
const largest = rows[rows.length - 1];
console.log(
  `time grows with products² (pairs): ×2 products ≈ ×4 time expected; peak RSS ${mb(peakRss)}`,
);
if (largest) {
  const ok = largest.bestMs < 1000 && peakRss < 1024 * 1_048_576;
  console.log(
    `target 2,000 products < 1 s and < 1 GB: ${ok ? 'met' : 'NOT met'} (${largest.firstMs.toFixed(0)} ms first run, ${largest.bestMs.toFixed(0)} ms best)`,
  );
}
