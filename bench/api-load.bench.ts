// GET /api/v2/users/me under 50 concurrent connections, on PGlite and on the PostgreSQL server
// at 127.0.0.1:5432 when one answers. Target on PostgreSQL: >= 3,000 req/s, p99 < 50 ms.
// Then, on PostgreSQL (issue 34), the equipment list pages the cache has not seen (every page of
// three sorts and searches, each round after a write) of an 84-row, a 1,000-row and a 10,000-row
// facility (LIST_ROWS=84,1000 for fewer):
// Node CPU and PostgreSQL CPU per request as ratios to the primary-key anchor's (goal <= 2x and
// <= 3x). LIST_ROUNDS=0 leaves them out.
import autocannon from 'autocannon';
import { admin, onEachDatabase, signIn } from './bench-fixture.ts';
import { compareListCost, uncachedPages } from './list-cost.ts';
import { facilityOf, startAnchor } from './pk-anchor.ts';
import { startServerProcess } from './server-process.ts';

const LIST_ROUNDS = Number(process.env.LIST_ROUNDS ?? 3);
/** Facility sizes of the uncached list pages; the goal holds up to 10,000 rows. */
const LIST_ROWS = (process.env.LIST_ROWS ?? '84,1000,10000').split(',').map(Number);

async function listCosts(serverUrl: string, pid: number, token: string, databaseUrl: string) {
  const me = (await (
    await fetch(`${serverUrl}/api/v2/users/me`, { headers: { token } })
  ).json()) as { id: number; planId: number };
  const anchor = await startAnchor(databaseUrl, '20');
  try {
    for (const rows of LIST_ROWS) {
      const facility = await facilityOf(serverUrl, token, me.planId, rows);
      const facilityId = Number(facility.split('/').pop());
      const list = `${facility}/equipments`;
      const {
        app,
        anchor: floor,
        nodeRatio,
        pgRatio,
      } = await compareListCost({
        databaseUrl,
        rounds: LIST_ROUNDS,
        app: {
          pid,
          headers: { token },
          touch: `update equipment set room_grade = room_grade
                   where id = (select min(id) from equipment where facility_id = ${facilityId})`,
          urls: (round) => uncachedPages(list, rows, round),
        },
        anchor: { pid: anchor.pid, url: `${anchor.url}/users/${me.id}` },
      });
      console.log(
        `PostgreSQL: uncached equipment pages of ${rows} rows (${app.requests} a round, medians of ${LIST_ROUNDS} rounds): Node ${app.nodeUs.toFixed(0)} µs vs anchor ${floor.nodeUs.toFixed(0)} µs = ${nodeRatio.toFixed(2)}x; PostgreSQL ${app.pgUs.toFixed(0)} µs vs anchor ${floor.pgUs.toFixed(0)} µs = ${pgRatio.toFixed(2)}x`,
      );
    }
  } finally {
    await anchor.close();
  }
}

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
    if (env.DATABASE_URL && LIST_ROUNDS > 0)
      await listCosts(server.url, server.child.pid!, token, env.DATABASE_URL);
  } finally {
    await server.stop();
  }
}

await onEachDatabase(measure, { DB_POOL_SIZE: process.env.DB_POOL_SIZE ?? '20' });
