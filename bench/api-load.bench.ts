// GET /api/v2/users/me under 50 concurrent connections, on PGlite and on the PostgreSQL server
// at 127.0.0.1:5432 when one answers. Target on PostgreSQL: >= 3,000 req/s, p99 < 50 ms.
import autocannon from 'autocannon';
import { admin, onEachDatabase, signIn } from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';

const seconds = Number(process.env.DURATION ?? 10);

async function measure(label: string, env: Record<string, string>): Promise<void> {
  const server = await startServerProcess({ ...admin, SERVE_CLIENT: 'false', ...env });
  try {
    const { token } = await signIn(server.url);
    const opts = { url: `${server.url}/api/v2/users/me`, connections: 50, headers: { token } };
    await autocannon({ ...opts, duration: 2 }); // warm-up
    const result = await autocannon({ ...opts, duration: seconds });
    const ok = result['2xx'];
    console.log(
      `${label}: ${result.requests.average.toFixed(0)} req/s (mean), p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${ok} ok, ${result.non2xx} non-2xx, ${result.errors} errors, server RSS ${server.rssMiB().toFixed(0)} MiB`,
    );
  } finally {
    await server.stop();
  }
}

await onEachDatabase(measure, { DB_POOL_SIZE: process.env.DB_POOL_SIZE ?? '20' });
