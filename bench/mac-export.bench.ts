// MAC matrix xlsx export of a 1,000-product facility, through the HTTP API of a production
// build (issue 5): time to the last byte, file size, and the server's resident memory while it
// streams (peak sampled every 20 ms, and its rise over the level before the export).
// Runs on PGlite, and on the PostgreSQL server at 127.0.0.1:5432 when one answers.
//   npm run bench:mac-export
import {
  THOUSAND_PRODUCTS,
  admin,
  facilityWorkbook,
  onEachDatabase,
  signIn,
  uploadWorkbook,
} from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';

const PRODUCTS = THOUSAND_PRODUCTS.products;
/** The first run also pays for loading exceljs. */
const RUNS = Number(process.env.RUNS ?? 2);

async function run(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env });
  try {
    const { token, facility } = await signIn(server.url);
    const F = facility(1);
    await uploadWorkbook(F, token, workbook);
    const pairs = (
      (await (await fetch(`${F}/mac-matrix/pairs?pageLimit=1`, { headers: { token } })).json()) as {
        total: number;
      }
    ).total;

    for (let i = 0; i < RUNS; i++) {
      const before = server.rssMiB();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, server.rssMiB())), 20);
      const started = performance.now();
      const res = await fetch(`${F}/mac-matrix/export`, { headers: { token } });
      const headers = performance.now() - started;
      const reader = res.body!.getReader();
      let first = 0;
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!first) first = performance.now() - started;
        bytes += value.length;
      }
      const total = performance.now() - started;
      clearInterval(sampler);
      peak = Math.max(peak, server.rssMiB());
      console.log(
        `${label}: xlsx export, ${PRODUCTS} products, ${pairs} pairs: headers ${headers.toFixed(0)} ms, first byte ${first.toFixed(0)} ms, total ${(total / 1000).toFixed(1)} s, ${(bytes / 1e6).toFixed(1)} MB; server RSS ${before.toFixed(0)} → peak ${peak.toFixed(0)} MiB (+${(peak - before).toFixed(0)}) (run ${i + 1})`,
      );
    }
    console.log(
      `${label}: server peak RSS over the whole run (VmHWM, incl. the import) ${server.peakRssMiB().toFixed(0)} MiB`,
    );
  } finally {
    await server.stop();
  }
}

const workbook = await facilityWorkbook(THOUSAND_PRODUCTS);
await onEachDatabase(run);
