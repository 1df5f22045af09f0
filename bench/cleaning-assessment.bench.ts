// A cleaning assessment of the 1,000-product facility, through the HTTP API of a production
// build (target under 10 s from POST to done): the facility THOUSAND_PRODUCTS, with
// each production's products in a product group and a Validated historical study of its first
// product, so that the coverage has studies, representatives and gaps. POST
// {F}/cleaning-assessments, then GET it every 50 ms until done, printing the progress seen.
// Runs on PGlite, and on the PostgreSQL server at 127.0.0.1:5432 when one answers.
import {
  admin,
  facilityWorkbook,
  onEachDatabase,
  signIn,
  THOUSAND_PRODUCTS,
  uploadWorkbook,
  facilityCaller,
  type BenchBody,
} from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';

type Body = BenchBody;

async function run(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env });
  try {
    const { token, facility } = await signIn(server.url);
    const F = facility(1);
    const call = facilityCaller(F, token);
    const workbook = await facilityWorkbook(THOUSAND_PRODUCTS);
    await uploadWorkbook(F, token, workbook);
    const productions = (await call('GET', '/productions?pageLimit=1000')).data as Body[];
    for (const p of productions) {
      const productIds = p.productIds as number[];
      if (productIds.length === 0) continue;
      await call('POST', '/product_groups', { name: `Group of ${p.name}`, productIds });
      await call('POST', '/historical-study', {
        productId: productIds[0],
        productionId: p.id,
        studyType: 'Validation',
        completedDate: '2025-01-15',
        outcome: 'Validated',
        name: `CVR-${p.name}`,
      });
    }

    for (let run = 1; run <= 2; run += 1) {
      const started = performance.now();
      const { cleaningAssessment } = await call('POST', '/cleaning-assessments', {});
      const answered = performance.now() - started;
      const seen: string[] = [];
      let done: Body;
      for (;;) {
        done = (await call('GET', `/cleaning-assessments/${cleaningAssessment.id}`))
          .cleaningAssessment as Body;
        const p = done.progress as Body;
        const line = `${p.state} ${p.done}/${p.total} ${p.stage} (${((performance.now() - started) / 1000).toFixed(2)} s)`;
        if (seen.at(-1)?.split(' (')[0] !== line.split(' (')[0]) seen.push(line);
        if (p.state === 'done' || p.state === 'failed') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const total = (performance.now() - started) / 1000;
      const counts = done.result?.counts as Body | undefined;
      console.log(
        `${label}: cleaning assessment ${done.number} of 1,000 products, run ${run}: POST answered in ${answered.toFixed(0)} ms, done in ${total.toFixed(2)} s (target < 10 s); ${JSON.stringify(counts)}`,
      );
      for (const line of seen) console.log(`  ${line}`);
      if (done.progress.state === 'failed') throw new Error(done.progress.error as string);
    }
    console.log(`${label}: server RSS ${server.rssMiB().toFixed(0)} MiB`);
  } finally {
    await server.stop();
  }
}

await onEachDatabase(run);
