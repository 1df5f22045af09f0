import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../test/server-process.ts';
import { createServerTestDatabase } from '../test/test-db.ts';
import { ADMIN } from '../test/test-server.ts';

const url = process.env.DATABASE_URL;
const WRITERS = 8;
const ROUNDS = 10;

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
});

async function post(server: ServerProcess, token: string, path: string, body: unknown) {
  try {
    const res = await fetch(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { errName?: string };
    return { status: res.status, errName: json.errName };
  } catch {
    // No answer at all: the process died or dropped the socket.
    return { status: 0, errName: undefined };
  }
}

// R-3 of the reliability reference: only a real server can drop the app's connections.
describe.runIf(url)('losing database connections under load', () => {
  it('answers 503 for the requests that lost their connection, then recovers, and never exits', async () => {
    const database = await createServerTestDatabase();
    cleanup.push(database.drop);
    const server = await startServerProcess({
      DATABASE_URL: `${database.url}?application_name=carryover-fault`,
      ...(database.separateOwner ? { DATABASE_OWNER_URL: database.ownerUrl } : {}),
      DB_POOL_SIZE: '6',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      API_RATE_LIMIT_MAX: '1000000',
    });
    cleanup.push(server.stop);
    const login = await fetch(`${server.url}/api/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password }),
    });
    const { token } = (await login.json()) as { token: string };

    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    cleanup.push(() => admin.end());

    const statuses = new Map<number, number>();
    let running = true;
    let sequence = 0;
    const writer = async (id: number) => {
      while (running) {
        sequence += 1;
        const res = await post(server, token, '/api/v2/departments', {
          name: `Fault ${id}-${sequence}`,
        });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, id) => writer(id));

    // Each round ends a connection the app holds at that moment. After the last round's, the
    // pool connects again only for the next request: at a load of 27 no writer had reached it
    // 300 ms later in two of ten rounds, so a round waits for one to be there (issue 27).
    const appConnections = async () =>
      (
        await admin.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
            where datname = $1 and application_name = 'carryover-fault'`,
          [database.name],
        )
      ).rows[0]!.n;
    let terminated = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      while ((await appConnections()) === 0)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const { rows } = await admin.query<{ ok: boolean }>(
        `select pg_terminate_backend(pid) as ok from pg_stat_activity
          where datname = $1 and application_name = 'carryover-fault'`,
        [database.name],
      );
      terminated += rows.filter((r) => r.ok).length;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    running = false;
    await Promise.all(writers);

    // After the last round every writer's next request succeeds.
    const after = await Promise.all(
      Array.from({ length: WRITERS }, (_, id) =>
        post(server, token, '/api/v2/departments', { name: `After ${id}` }),
      ),
    );
    const exited = server.child.exitCode !== null || server.child.signalCode !== null;
    const counts = Object.fromEntries(statuses);
    const other5xx = [...statuses]
      .filter(([status]) => status === 0 || (status >= 500 && status !== 503))
      .reduce((n, [, count]) => n + count, 0);
    console.log(
      `connection loss: ${ROUNDS} rounds, ${terminated} connections terminated, statuses ${JSON.stringify(counts)}, ` +
        `process exits ${exited ? 1 : 0}, 5xx other than 503: ${other5xx}`,
    );
    expect(terminated).toBeGreaterThanOrEqual(ROUNDS);
    expect(exited, `the server ended: ${server.output().stdout.slice(-2000)}`).toBe(false);
    expect(other5xx).toBe(0);
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(after.map((r) => r.status)).toEqual(Array(WRITERS).fill(200));
    expect(server.output().stderr).not.toMatch(/Unhandled|uncaught/i);
  });
});
