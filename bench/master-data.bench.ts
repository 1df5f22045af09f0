// Master data at scale, through the HTTP API of a production build:
// - import of a 1,000-product facility workbook, then the MAC matrix API on it (time to first
//   byte and total; target under 2 s on PostgreSQL),
// - export and import of the demo facility's workbook,
// - import of a 10,000-row workbook (target under 30 s).
// Runs on PGlite, and on the PostgreSQL server at 127.0.0.1:5432 when one answers.
import {
  admin,
  facilityWorkbook,
  onEachDatabase,
  signIn,
  TEN_THOUSAND_ROWS,
  uploadWorkbook,
} from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';

async function run(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env });
  try {
    const { token, facility: F } = await signIn(server.url);
    const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
      const t = performance.now();
      const r = await fn();
      return [r, (performance.now() - t) / 1000];
    };
    const upload = async (facility: number, buffer: Buffer) =>
      (await uploadWorkbook(F(facility), token, buffer)).body;

    const big = await facilityWorkbook({
      actives: 1000,
      products: 1000,
      equipment: 1000,
      productions: 100,
      seed: 7,
    });
    const [imported, importSeconds] = await timed(() => upload(1, big));
    console.log(
      `${label}: import of a 1,000-product facility (${imported.rows} rows): ${importSeconds.toFixed(1)} s`,
    );

    for (let i = 0; i < 3; i += 1) {
      const started = performance.now();
      const res = await fetch(`${F(1)}/mac-matrix`, { headers: { token } });
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
      console.log(
        `${label}: MAC matrix API, 1,000 products: first byte ${first.toFixed(0)} ms, total ${total.toFixed(0)} ms, ${(bytes / 1e6).toFixed(1)} MB (run ${i + 1})`,
      );
    }
    const [, exportSeconds] = await timed(async () =>
      (await fetch(`${F(1)}/master`, { headers: { token } })).arrayBuffer(),
    );
    console.log(`${label}: export of the 1,000-product facility: ${exportSeconds.toFixed(1)} s`);

    const tenK = await facilityWorkbook(TEN_THOUSAND_ROWS);
    const [tenKReport, tenKSeconds] = await timed(() => upload(2, tenK));
    console.log(
      `${label}: import of a 10,000-row workbook (${tenKReport.rows} rows): ${tenKSeconds.toFixed(1)} s (target < 30 s); server RSS ${server.rssMiB().toFixed(0)} MiB`,
    );
  } finally {
    await server.stop();
  }
}

await onEachDatabase(run);
