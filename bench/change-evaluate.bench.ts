// POST evaluate of a change assessment over HTTP on a 1,000-product facility (issue 11): the
// engine input in force, the change set applied and rolled back, the input again and the
// impact compared pair by pair. Target: under 2 s. Runs on PGlite, then on the PostgreSQL
// server at 127.0.0.1:5432 when one answers.
//   npm run bench:change-evaluate
import {
  facilityOfSize,
  admin,
  facilityWorkbook,
  onEachDatabase,
  signIn,
  uploadWorkbook,
  facilityCaller,
  type BenchBody,
} from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';

// PRODUCTS=5000 measures a larger facility of the same shape.
const SIZE = facilityOfSize();
const PRODUCTS = SIZE.products;
const RUNS = Number(process.env.RUNS ?? 3);

type Body = BenchBody;

async function run(label: string, env: Record<string, string>): Promise<void> {
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
      console.log(
        `${label}: evaluate ${what}, ${PRODUCTS} products, ${s.pairsBefore} pairs: ${ms.toFixed(0)} ms, server CPU ${cpuMs} ms, peak RSS ${server.peakRssMiB().toFixed(0)} MiB` +
          ` (${s.pairsMoved} moved, ${s.pairsListed} listed, ${evaluated.evaluation.undecided} items; run ${run})${ms < 2000 ? '' : ' OVER 2 s'}`,
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

const workbook = await facilityWorkbook(SIZE);
await onEachDatabase(run);
