// The primary-key anchor (pk-anchor-server.ts) as a process of its own, and facilities of a given
// size for the benches that compare the app's list pages with it.
import { spawn } from 'node:child_process';
import { freePort } from '#server/test/server-process.ts';
import { projectRoot } from '#server/util/project-root.ts';
import { facilityCaller, facilityWorkbook, uploadWorkbook } from './bench-fixture.ts';

/** The anchor, in a process of its own as the app is (the load generator runs in this one). */
export async function startAnchor(databaseUrl: string, poolSize: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/pk-anchor-server.ts'], {
    cwd: projectRoot(),
    env: { ...process.env, DATABASE_URL: databaseUrl, DB_POOL_SIZE: poolSize, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anchor exited with ${child.exitCode}`);
    try {
      await fetch(url);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return {
    url,
    pid: child.pid!,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A new empty facility of the plan, created through the app's API; its id. */
export async function createFacility(
  serverUrl: string,
  token: string,
  planId: number,
  name: string,
): Promise<number> {
  const res = await fetch(`${serverUrl}/api/v2/plans/${planId}/facilities`, {
    method: 'POST',
    headers: { token, 'content-type': 'application/json' },
    body: JSON.stringify({ name, productType: 'product', tier: 'full', facilityGroupId: 1 }),
  });
  const created = (await res.json()) as { id: number };
  if (res.status !== 200) throw new Error(`facility: ${res.status} ${JSON.stringify(created)}`);
  return created.id;
}

/** A facility of `rows` equipment items, created and filled through the app's own API. */
export async function facilityOf(serverUrl: string, token: string, planId: number, rows: number) {
  const id = await createFacility(serverUrl, token, planId, `Bench ${rows}`);
  const url = `${serverUrl}/api/v2/plans/${planId}/facilities/${id}`;
  const size = { actives: 0, products: 0, equipment: rows, productions: 0, seed: 5 };
  await uploadWorkbook(url, token, await facilityWorkbook(size));
  const page = await facilityCaller(url, token)('GET', '/equipments?pageLimit=10');
  if (page.total !== rows) throw new Error(`facility of ${rows}: total ${page.total}`);
  return url;
}
