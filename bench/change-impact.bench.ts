/**
 * changeImpact (issue 11) on the 1,000-product facility of the limits benchmarks (1,000 equipment
 * items, trains of 5–30 items), with 50 productions, three analytical methods and 200 sample
 * results: (a) one active's PDE changed, (b) the policy changed (every pair moves), (c) a product
 * added. Target: under 2 s each, everything included. Each case runs in its own process, so the
 * peak memory printed is that case's.
 *   npm run bench:change-impact
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { changeImpact } from '#core/assessments/change-impact.ts';
import type { ImpactContext } from '#core/assessments/change-impact.ts';
import { parseLimitsInput } from '#core/limits/contract-input.ts';
import { applyWhatIf } from '#core/limits/limits.what-if.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import { syntheticLimitsInput } from './limits-input.ts';

const PRODUCTS = Number(process.env.PRODUCTS ?? 1_000);
const EQUIPMENT = Number(process.env.EQUIPMENT ?? PRODUCTS);
const CASES = {
  pde: 'one active’s PDE changed',
  policy: 'the policy changed (recovery 80 % → 70 %: every pair moves)',
  addProduct: 'a product added',
} as const;
type Case = keyof typeof CASES;

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`;

function facility(): LimitsInput {
  const parsed = parseLimitsInput(syntheticLimitsInput(PRODUCTS, EQUIPMENT));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors.slice(0, 3)));
  return parsed.input;
}

function context(input: LimitsInput): ImpactContext {
  const ids = input.products.map((p) => p.id);
  return {
    trains: Array.from({ length: 50 }, (_, t) => ({
      name: `Line ${t + 1}`,
      products: ids.slice(t * 20, t * 20 + 20),
      equipment: [],
      // Named by the ranking on the server; the impact derives the train's limits for it.
      worstCase: { before: ids[t * 20] ?? null, after: ids[t * 20 + 1] ?? null },
    })),
    methods: [
      { name: 'HPLC', sampleType: 'swab', loq: { value: 1, unit: 'ug/swab' } },
      { name: 'TOC', sampleType: 'rinse', loq: { value: 0.5, unit: 'ppm' } },
      { name: 'UV', sampleType: 'swab', loq: { value: 5, unit: 'ug/swab' }, residues: ['API-1'] },
    ],
    results: ids.slice(0, 200).map((id, i) => ({
      id: `S-${i + 1}`,
      previous: id,
      sampleType: i % 2 === 0 ? 'swab' : 'rinse',
      value: i % 2 === 0 ? { value: 2, unit: 'ug/swab' } : { value: 0.1, unit: 'mg/L' },
    })),
  };
}

function changed(input: LimitsInput, which: Case): LimitsInput {
  switch (which) {
    case 'pde': {
      const active = input.products[0]!.actives[0]!;
      return applyWhatIf(input, [
        { kind: 'pde', active: active.id, value: { value: 0.05, unit: 'ug' } },
      ]);
    }
    case 'policy':
      return { ...input, policy: { ...input.policy, globalRecoveryPercentage: 70 } };
    case 'addProduct':
      return applyWhatIf(input, [
        {
          kind: 'addProduct',
          product: 'PRD-NEW',
          active: input.products[10]!.actives[0]!.id,
          minBatchSize: { value: 50, unit: 'kg' },
          maxDailyDose: { value: 500, unit: 'mg' },
          equipment: ['EQ-1', 'EQ-2', 'EQ-3', 'EQ-50', 'EQ-500'],
        },
      ]);
  }
}

function runCase(which: Case): void {
  const before = facility();
  const after = changed(before, which);
  const ctx = context(before);
  const rssBefore = process.memoryUsage().rss;
  const t = performance.now();
  const cpuBefore = process.cpuUsage();
  const impact = changeImpact(before, after, ctx);
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpuBefore);
  const cpuMs = (used.user + used.system) / 1000;
  const s = impact.summary;
  console.log(
    JSON.stringify({
      ms,
      cpuMs,
      rssBefore,
      peak: process.resourceUsage().maxRSS * 1024,
      items: impact.items.length,
      listed: impact.pairs.length,
      summary: s,
    }),
  );
}

const which = process.argv[2] as Case | undefined;
if (which) {
  runCase(which);
} else {
  console.log(
    `changeImpact on ${PRODUCTS} products, ${EQUIPMENT} equipment items, trains of 5-30 items`,
  );
  let slowest = 0;
  for (const name of Object.keys(CASES) as Case[]) {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), name],
      {
        encoding: 'utf8',
      },
    );
    if (child.status !== 0) throw new Error(child.stderr);
    const r = JSON.parse(child.stdout.trim().split('\n').pop()!);
    slowest = Math.max(slowest, r.ms);
    console.log(
      `(${name}) ${CASES[name]}: ${(r.ms / 1000).toFixed(2)} s (CPU ${(r.cpuMs / 1000).toFixed(2)} s); peak RSS ${mb(r.peak)} (${mb(r.rssBefore)} before the call); ` +
        `${r.summary.pairsBefore} → ${r.summary.pairsAfter} pairs, ${r.summary.pairsMoved} moved, ` +
        `${r.summary.pairsAdded} added, ${r.summary.pairsRemoved} removed; ${r.items} items, ${r.listed} pairs listed`,
    );
  }
  console.log(
    slowest < 2_000 ? 'OK: every case under 2 s' : `SLOW: ${(slowest / 1000).toFixed(2)} s`,
  );
  if (slowest >= 2_000) process.exitCode = 1;
}
