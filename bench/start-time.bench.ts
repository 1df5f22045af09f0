// Time and CPU from `npm start` to the first answered request on an existing embedded database,
// and the memory the process holds then. Target: under 1.5 s (issue 16); CPU at most 1.3× the
// floor (issue 34): a bare Fastify app opening the same migrated data folder with the same Node
// flags (start-anchor-server.mjs), started in turn with the app. Then the route set-up alone:
// buildApp (every route, hook and schema) and ready, in this process on the same database.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';
import { SERVER_NODE_FLAGS } from '../scripts/server-node-flags.mjs';

const runs = Number(process.env.RUNS ?? 5);
const dataDir = mkdtempSync(join(tmpdir(), 'carryover-bench-'));
const env = { DATA_DIR: dataDir, ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'Admin#12345' };

execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
const first = await startServerProcess(env);
console.log(`first start (creates the database): ${(first.readyMs / 1000).toFixed(2)} s`);
await first.stop();
// Each fills its compile cache once, as a second start of an installed app finds it.
await (await startServerProcess(env)).stop();
await (await startServerProcess(env, SERVER_NODE_FLAGS, 'bench/start-anchor-server.mjs')).stop();

const started = { times: [] as number[], cpu: [] as number[] };
const anchored = { times: [] as number[], cpu: [] as number[] };
for (let i = 0; i < runs; i += 1) {
  const server = await startServerProcess(env);
  started.times.push(server.readyMs);
  started.cpu.push(server.cpuMs());
  console.log(
    `start ${i + 1}: ${(server.readyMs / 1000).toFixed(2)} s to first answer, CPU ${server.cpuMs()} ms, RSS ${server.rssMiB().toFixed(0)} MiB (peak ${server.peakRssMiB().toFixed(0)} MiB)`,
  );
  await server.stop();
  const anchor = await startServerProcess(env, SERVER_NODE_FLAGS, 'bench/start-anchor-server.mjs');
  anchored.times.push(anchor.readyMs);
  anchored.cpu.push(anchor.cpuMs());
  console.log(
    `floor ${i + 1}: ${(anchor.readyMs / 1000).toFixed(2)} s to first answer, CPU ${anchor.cpuMs()} ms, RSS ${anchor.rssMiB().toFixed(0)} MiB (peak ${anchor.peakRssMiB().toFixed(0)} MiB)`,
  );
  await anchor.stop();
}
const sorted = [...started.times].sort((a, b) => a - b);
console.log(
  `existing embedded database: median ${(median(started.times) / 1000).toFixed(2)} s, best ${(sorted[0]! / 1000).toFixed(2)} s, worst ${(sorted.at(-1)! / 1000).toFixed(2)} s over ${runs} starts (target < 1.5 s)`,
);
console.log(
  `start CPU to first answer: app median ${median(started.cpu).toFixed(0)} ms, Fastify + PGlite floor ${median(anchored.cpu).toFixed(0)} ms: ${(median(started.cpu) / median(anchored.cpu)).toFixed(2)}× (target ≤ 1.3×); wall ${(median(started.times) / median(anchored.times)).toFixed(2)}×; median of each start's ratio to the floor started after it ${median(started.cpu.map((cpu, i) => cpu / anchored.cpu[i]!)).toFixed(2)}× (steadier on a loaded machine)`,
);

// Route set-up: the modules are loaded first, so that only building the app is timed.
const { openDatabase } = await import('#server/db/open.ts');
const { loadConfig } = await import('#server/config.ts');
const { buildApp } = await import('#server/app.ts');
const config = loadConfig({ ...env, LOG_LEVEL: 'silent', SERVE_CLIENT: 'false' });
const db = await openDatabase({ dataDir });
const setups: number[] = [];
let routes = 0;
for (let i = 0; i < runs; i += 1) {
  const begun = performance.now();
  const app = await buildApp({ config, db });
  await app.ready();
  setups.push(performance.now() - begun);
  routes = app
    .printRoutes({ commonPrefix: false })
    .split('\n')
    .filter((l) => l.includes('(')).length;
  await app.close();
}
await db.close();
rmSync(dataDir, { recursive: true, force: true });
console.log(
  `route set-up (buildApp and ready, ${routes} routes): first ${setups[0]!.toFixed(0)} ms, later median ${median(setups.slice(1)).toFixed(0)} ms`,
);
