// Time from `npm start` to the first answered request on an existing embedded database, and the
// memory the process holds then. Target: under 1.5 s (issue 16). Then the route set-up alone:
// buildApp (every route, hook and schema) and ready, in this process on the same database.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './bench-fixture.ts';
import { startServerProcess } from './server-process.ts';

const runs = Number(process.env.RUNS ?? 5);
const dataDir = mkdtempSync(join(tmpdir(), 'carryover-bench-'));
const env = { DATA_DIR: dataDir, ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'Admin#12345' };

execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
const first = await startServerProcess(env);
console.log(`first start (creates the database): ${(first.readyMs / 1000).toFixed(2)} s`);
await first.stop();

const times: number[] = [];
for (let i = 0; i < runs; i += 1) {
  const server = await startServerProcess(env);
  times.push(server.readyMs);
  console.log(
    `start ${i + 1}: ${(server.readyMs / 1000).toFixed(2)} s to first answer, RSS ${server.rssMiB().toFixed(0)} MiB (peak ${server.peakRssMiB().toFixed(0)} MiB)`,
  );
  await server.stop();
}
times.sort((a, b) => a - b);
console.log(
  `existing embedded database: median ${(times[Math.floor(times.length / 2)]! / 1000).toFixed(2)} s, best ${(times[0]! / 1000).toFixed(2)} s, worst ${(times.at(-1)! / 1000).toFixed(2)} s over ${runs} starts (target < 1.5 s)`,
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
  const started = performance.now();
  const app = await buildApp({ config, db });
  await app.ready();
  setups.push(performance.now() - started);
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
