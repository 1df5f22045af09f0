// The full MAC matrix answer of a 1,000-product facility (issue 34), through the HTTP API of a
// production build on PGlite:
// - bytes per pair of GET {F}/mac-matrix (the contract document) and of ?format=columns,
//   identity and gzip (the columns answer at most 120 B/pair before compression);
// - serialisation CPU per 256k pairs, in this process on the facility's own engine input
//   (GET {F}/limits/input): the engine's matrix run alone, the columns answer, the contract
//   document, each including the run, and gzip of the columns text (at most 0.25 s, net of the run);
// - whether the columns answer is compressed once per state of the data: the server's CPU for
//   the first request after a change against each further one, and again after a change.
//   npm run bench:mac-columns
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { compileLimits } from '#core/limits/compile.ts';
import { contractChunks } from '#core/limits/contract-output.ts';
import { runMatrix } from '#core/limits/matrix.ts';
import type { LimitsInput } from '#core/limits/model.ts';
import { macColumnsText } from '#server/modules/limits/mac-columns.ts';
import {
  THOUSAND_PRODUCTS,
  admin,
  bytesOf,
  facilityWorkbook,
  signIn,
  uploadWorkbook,
} from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';

const PER = 256_000;
const MAX_BYTES_PER_PAIR = 120;
const MAX_CPU_S = 0.25;
const RUNS = 3;

/** The least CPU (user + system) of a few runs of `work`, in seconds. */
function cpuSeconds(work: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < RUNS; run++) {
    const started = process.cpuUsage();
    work();
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1e6);
  }
  return best;
}

execFileSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' });
const workbook = await facilityWorkbook(THOUSAND_PRODUCTS);
const dataDir = mkdtempSync(join(tmpdir(), 'carryover-mac-columns-'));
const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', DATA_DIR: dataDir });
try {
  const { token, facility } = await signIn(server.url);
  const F = facility(1);
  await uploadWorkbook(F, token, workbook);
  const get = async (path: string) => {
    const res = await fetch(`${F}${path}`, { headers: { token } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res;
  };

  // Server CPU of the columns answer: first after a change, then each further request.
  const serverCpu = async () => {
    const before = server.cpuMs();
    const body = (await (await get('/mac-matrix?format=columns')).json()) as { count: number };
    return { ms: server.cpuMs() - before, pairs: body.count };
  };
  const first = await serverCpu();
  const again: number[] = [];
  for (let i = 0; i < 5; i++) again.push((await serverCpu()).ms);
  const pairs = first.pairs;
  const repeat = again.reduce((a, b) => a + b, 0) / again.length;
  // Compressed once per state: every request after the first costs a small part of it.
  const once = repeat < first.ms / 5;
  console.log(
    `GET mac-matrix?format=columns, ${pairs.toLocaleString('en-US')} pairs: server CPU first request ${first.ms} ms (matrix run, serialisation, gzip), each further request ${repeat.toFixed(0)} ms: compressed once per state: ${once ? 'yes' : 'NO'}`,
  );

  for (const [what, path] of [
    ['contract document', '/mac-matrix'],
    ['columns', '/mac-matrix?format=columns'],
  ] as const) {
    const sizes: string[] = [];
    for (const encoding of [undefined, 'gzip']) {
      const perPair = (await bytesOf(`${F}${path}`, token, encoding)) / pairs;
      const limit =
        encoding === undefined && what === 'columns'
          ? ` (at most ${MAX_BYTES_PER_PAIR}: ${perPair <= MAX_BYTES_PER_PAIR ? 'met' : 'MISSED'})`
          : '';
      sizes.push(`${encoding ?? 'identity'} ${perPair.toFixed(1)} B/pair${limit}`);
    }
    console.log(`whole matrix, ${what}: ${sizes.join(', ')}`);
  }

  // Serialisation in this process, on the engine input the server computes with.
  const { input } = (await (await get('/limits/input')).json()) as { input: LimitsInput };
  const m = compileLimits(input);
  const state = { compiled: () => m, uncomputable: [] };
  const scale = (s: number) => (s * PER) / pairs;
  const run = cpuSeconds(() => runMatrix(m));
  let text = '';
  const columns = cpuSeconds(() => (text = macColumnsText(state).text));
  const contract = cpuSeconds(() => {
    for (const _chunk of contractChunks(input)) continue;
  });
  const gzip = cpuSeconds(() => gzipSync(text));
  const net = scale(columns - run);
  console.log(
    `CPU per 256k pairs: matrix run alone ${scale(run).toFixed(3)} s; columns answer ${scale(columns).toFixed(3)} s with the run, ${net.toFixed(3)} s serialisation (at most ${MAX_CPU_S}: ${net <= MAX_CPU_S ? 'met' : 'MISSED'}); contract document ${scale(contract).toFixed(3)} s with the run, ${scale(contract - run).toFixed(3)} s serialisation; gzip of the columns text ${scale(gzip).toFixed(3)} s (once per state)`,
  );

  // After a change that moves limits, the next request serialises and compresses once again.
  const products = (await (await get('/products?pageLimit=1')).json()) as {
    data: { id: number; version: number; minBatchSize: { value: number; unit: string } }[];
  };
  const product = products.data[0]!;
  const changed = await fetch(`${F}/products/${product.id}`, {
    method: 'POST',
    headers: { token, 'content-type': 'application/json' },
    body: JSON.stringify({
      minBatchSize: { ...product.minBatchSize, value: product.minBatchSize.value * 2 },
      reason: 'Bench: a change that moves limits',
      version: product.version,
    }),
  });
  if (changed.status !== 200) throw new Error(`change: ${changed.status} ${await changed.text()}`);
  const afterChange = await serverCpu();
  const afterAgain = await serverCpu();
  console.log(
    `after a batch size change: first request ${afterChange.ms} ms server CPU (a new state, compressed again), the next ${afterAgain.ms} ms`,
  );
  console.log(
    `server RSS ${server.rssMiB().toFixed(0)} MiB (peak ${server.peakRssMiB().toFixed(0)} MiB)`,
  );
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
