// MAC matrix pairs pages and response sizes of a 1,000-product facility, through the HTTP API
// of a production build (issue 16):
// - time per pairs page (500 pairs) computed afresh for each page (`asOf` bypasses the cache,
//   as every page did before the cache) against pages from the cached matrix state,
// - bytes per pair of the whole matrix and of a pairs page, identity, gzip and br.
// Runs on PGlite, and on the PostgreSQL server at 127.0.0.1:5432 when one answers.
//   npm run bench:mac-pairs
import {
  THOUSAND_PRODUCTS,
  admin,
  bytesOf,
  facilityWorkbook,
  onEachDatabase,
  signIn,
  uploadWorkbook,
} from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';
import { percentile } from './verification-fixture.ts';

const PAGES = Number(process.env.PAGES ?? 5);
const PAGE_LIMIT = 500;

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

async function run(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env });
  try {
    const { token, facility } = await signIn(server.url);
    const F = facility(1);
    await uploadWorkbook(F, token, workbook);
    const page = async (n: number, extra = '') => {
      const started = performance.now();
      const res = await fetch(
        `${F}/mac-matrix/pairs?pageLimit=${PAGE_LIMIT}&pageNumber=${n}&sort=-maco${extra}`,
        {
          headers: { token },
        },
      );
      const body = (await res.json()) as { total: number };
      if (res.status !== 200) throw new Error(JSON.stringify(body).slice(0, 300));
      return { ms: performance.now() - started, total: body.total };
    };
    const asOf = `&asOf=${encodeURIComponent(new Date().toISOString())}`;
    const uncached: number[] = [];
    for (let n = 1; n <= PAGES; n++) uncached.push((await page(n, asOf)).ms);
    const first = await page(1);
    const cached: number[] = [];
    for (let n = 2; n <= PAGES + 1; n++) cached.push((await page(n)).ms);
    console.log(
      `${label}: ${THOUSAND_PRODUCTS.products} products, ${first.total} pairs, pages of ${PAGE_LIMIT} sorted by -maco: recomputed each page median ${median(uncached).toFixed(0)} ms; cached: first page ${first.ms.toFixed(0)} ms, further pages median ${median(cached).toFixed(1)} ms (${PAGES} pages each)`,
    );
    for (const [what, url, pairs] of [
      ['whole matrix', `${F}/mac-matrix`, first.total],
      ['pairs page', `${F}/mac-matrix/pairs?pageLimit=${PAGE_LIMIT}`, PAGE_LIMIT],
    ] as const) {
      const sizes = [];
      for (const encoding of [undefined, 'gzip', 'br']) {
        const bytes = await bytesOf(url, token, encoding);
        sizes.push(`${encoding ?? 'identity'} ${(bytes / pairs).toFixed(1)} B/pair`);
      }
      console.log(`${label}: ${what}: ${sizes.join(', ')}`);
    }
  } finally {
    await server.stop();
  }
}

const workbook = await facilityWorkbook(THOUSAND_PRODUCTS);
await onEachDatabase(run);
