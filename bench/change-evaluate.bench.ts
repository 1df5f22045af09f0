// POST evaluate of a change assessment over HTTP on a 1,000- and a 5,000-product facility (issues
// 11 and 34): the engine input in force, the change set applied and rolled back, the input again
// and the impact compared pair by pair. Targets: under 2 s at 1,000 products, under 10 s at
// 5,000, and the server's peak memory during an evaluation under 512 MiB. Runs on PGlite, then on
// the PostgreSQL server at 127.0.0.1:5432 when one answers. Wall time is what a user waits; on a
// busy machine the server's CPU time is the steadier figure, so both are printed.
//   npm run bench:change-evaluate
import { writeFileSync } from 'node:fs';
import {
  facilityOfSize,
  admin,
  facilityWorkbook,
  onEachDatabase,
  signIn,
  uploadWorkbook,
  facilityCaller,
  type BenchBody,
  type FacilitySize,
} from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';

// PRODUCTS=5000 measures one size only.
const SIZES = process.env.PRODUCTS ? [Number(process.env.PRODUCTS)] : [1_000, 5_000];
const RUNS = Number(process.env.RUNS ?? 3);
const PEAK_MIB = 512;
/** The time an evaluation may take at each size, in ms. */
const targetMs = (products: number) => (products <= 1_000 ? 2_000 : 10_000);

type Body = BenchBody;

async function run(
  size: FacilitySize,
  workbook: Buffer,
  label: string,
  env: Record<string, string>,
): Promise<void> {
  const PRODUCTS = size.products;
  const limit = targetMs(PRODUCTS);
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env });
  try {
    const { token, facility } = await signIn(server.url);
    const F = facility(1);
    await uploadWorkbook(F, token, workbook);
    const call = facilityCaller(F, token);
    const product = (await call('GET', '/products?pageLimit=1')).data[0] as Body;
    const equipment = (await call('GET', '/equipments?pageLimit=1')).data[0] as Body;
    let ca = (await call('POST', '/change-assessments', { title: 'Bench', changeType: 'Other' }))
      .changeAssessment as Body;
    const stage = async (change: Body) =>
      (ca = (
        await call('POST', `/change-assessments/${ca.id}/changes`, {
          ...change,
          reason: 'Bench',
          version: ca.version,
        })
      ).changeAssessment as Body);
    await stage({
      op: 'update',
      entity: 'products',
      recordId: product.id,
      values: {
        maxDailyDose: { value: product.maxDailyDose.value * 3, unit: product.maxDailyDose.unit },
      },
    });
    await stage({
      op: 'update',
      entity: 'equipment',
      recordId: equipment.id,
      values: {
        surfaceArea: { value: equipment.surfaceArea.value * 2, unit: equipment.surfaceArea.unit },
      },
    });
    // A policy change moves every pair: the largest impact, 10,000 pairs listed.
    const chemical = await call('GET', '/cleaning_limit_policies/Chemical');
    let policyCa = (
      await call('POST', '/change-assessments', {
        title: 'Bench policy',
        changeType: 'Policy change',
      })
    ).changeAssessment as Body;
    policyCa = (
      await call('POST', `/change-assessments/${policyCa.id}/changes`, {
        op: 'update',
        entity: 'cleaningLimitPolicy',
        recordId: chemical.id,
        values: { useARL: !chemical.policy.useARL },
        reason: 'Bench',
        version: policyCa.version,
      })
    ).changeAssessment as Body;
    const evaluate = async (assessment: Body, what: string, run: number) => {
      // Writing 5 to clear_refs resets the peak (VmHWM): the evaluation's own peak, not the upload's.
      writeFileSync(`/proc/${server.child.pid}/clear_refs`, '5');
      // What the server held before: on PGlite the embedded database's memory stays at what the
      // upload took, so the peak is that plus the evaluation's own.
      const before = server.rssMiB();
      const started = performance.now();
      const cpu = server.cpuMs();
      const evaluated = (
        await call('POST', `/change-assessments/${assessment.id}/evaluate`, {
          version: assessment.version,
        })
      ).changeAssessment as Body;
      const ms = performance.now() - started;
      const cpuMs = server.cpuMs() - cpu;
      const s = evaluated.evaluation.summary as Body;
      const peak = server.peakRssMiB();
      console.log(
        `${label}: evaluate ${what}, ${PRODUCTS} products, ${s.pairsBefore} pairs: ${ms.toFixed(0)} ms, server CPU ${cpuMs} ms, peak RSS ${peak.toFixed(0)} MiB (${before.toFixed(0)} before)` +
          ` (${s.pairsMoved} moved, ${s.pairsListed} listed, ${evaluated.evaluation.undecided} items; run ${run})` +
          `${ms < limit ? '' : ` OVER ${limit / 1000} s`}${cpuMs < limit ? '' : ' (CPU too)'}${peak < PEAK_MIB ? '' : ` OVER ${PEAK_MIB} MiB`}`,
      );
      return evaluated;
    };
    for (let i = 0; i < RUNS; i++) policyCa = await evaluate(policyCa, 'a policy change', i + 1);
    for (let i = 0; i < RUNS; i++) {
      ca = await evaluate(ca, 'a product and an equipment edit', i + 1);
    }
    const started = performance.now();
    await call('GET', `/change-assessments/${ca.id}/impact?pageLimit=50`);
    const pairs = await call('GET', `/change-assessments/${ca.id}/impact/pairs?pageLimit=50`);
    console.log(
      `${label}: impact items and a page of ${pairs.total} pairs read in ${(performance.now() - started).toFixed(0)} ms`,
    );
  } finally {
    await server.stop();
  }
}

for (const products of SIZES) {
  const size = facilityOfSize(products);
  const workbook = await facilityWorkbook(size);
  await onEachDatabase((label, env) => run(size, workbook, label, env));
}
