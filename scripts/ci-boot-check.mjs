// CI: after `npm run build`, starts the shipped app as `npm start` does (node scripts/start.mjs)
// in this checkout, or in the app folder given as the argument (a production install), on a free port with an empty data directory, waits for /api/v2/health, checks that the built
// client is served, that `npm run backup` backs it up while it runs and `npm run restore` brings
// that back into an empty DATA_DIR, then stops it with SIGTERM and checks that it exits cleanly. Exit code 0
// when all of that holds; otherwise 1 with the reason and the server's output.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from './server-node-flags.mjs';

const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const isProductionInstall = process.argv[2] !== undefined;
// A first start creates the embedded database: seconds alone, much longer on a busy 2-core box.
const bootLimitMs = 120_000;
const stopLimitMs = 30_000;

async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A command in the app folder with `env` over this process's; its exit code and output. */
async function run(command, args, env) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const [code] = await once(child, 'exit');
  return { code, output };
}

async function get(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      body: await res.text(),
    };
  } catch {
    return undefined; // not listening yet
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'carryover-boot-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'scripts/start.mjs'], {
  cwd: root,
  // The embedded database: this checks the bundle, not a server the machine may lack.
  env: {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    ADMIN_EMAIL: '',
    ADMIN_PASSWORD: '',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let output = '';
child.stdout.on('data', (chunk) => (output += chunk));
child.stderr.on('data', (chunk) => (output += chunk));
const exited = once(child, 'exit').then(([code, signal]) => ({ code, signal }));

async function check() {
  const started = Date.now();
  let health;
  while (Date.now() - started < bootLimitMs && child.exitCode === null) {
    health = await get(`${url}/api/v2/health`);
    if (health?.status === 200) break;
    await sleep(250);
  }
  if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
  if (health?.status !== 200)
    throw new Error(`/api/v2/health did not answer 200 within ${bootLimitMs / 1000} s`);
  if (JSON.parse(health.body).status !== 'ok') throw new Error(`health said ${health.body}`);
  console.log(`healthy after ${((Date.now() - started) / 1000).toFixed(1)} s: ${health.body}`);
  // `npm run build` just ran, so `npm start` must find everything built.
  if (/Building the/.test(output)) throw new Error('npm start rebuilt what npm run build built');

  const page = await get(`${url}/`);
  const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(page?.body ?? '')?.[1];
  if (page?.status !== 200 || !page.body.includes('<div id="root">') || !script)
    throw new Error(`/ did not serve the built client (status ${page?.status})`);
  const bundle = await get(`${url}${script}`);
  if (bundle?.status !== 200 || !bundle.type.includes('javascript'))
    throw new Error(`${script} answered ${bundle?.status} ${bundle?.type}`);
  console.log(`serves the built client (${script})`);

  // `npm run backup` beside the running server, as a site's script calls it: on a production
  // install it runs the built dist/server/cli/backup.js (no tsx), and asks the server to write it.
  const file = join(dataDir, 'boot-check.carryover-backup');
  const backup = await run('npm', ['run', '--silent', 'backup', '--', file], {
    DATA_DIR: dataDir,
    DATABASE_URL: '',
  });
  if (backup.code !== 0 || !existsSync(file) || statSync(file).size === 0)
    throw new Error(`npm run backup exited with ${backup.code}: ${backup.output}`);
  console.log(backup.output.split('\n').find((line) => line.startsWith('Backup written')));
  // On a production install, back into an empty data folder as onto a new machine (keys, counts
  // and chains checked); the checkout's restore is server/cli/backup-cli.test.ts's.
  if (isProductionInstall) {
    const restore = await run('npm', ['run', '--silent', 'restore', '--', file], {
      DATA_DIR: join(dataDir, 'restored'),
      DATABASE_URL: '',
    });
    if (restore.code !== 0 || !restore.output.includes('audit chains verify intact'))
      throw new Error(`npm run restore exited with ${restore.code}: ${restore.output}`);
    console.log('npm run restore of it into an empty DATA_DIR: counts equal, chains intact');
  }

  const stopping = Date.now();
  child.kill('SIGTERM');
  let timer;
  const limit = new Promise((resolve) => (timer = setTimeout(resolve, stopLimitMs)));
  const result = await Promise.race([exited, limit]);
  clearTimeout(timer);
  if (!result) throw new Error(`still running ${stopLimitMs / 1000} s after SIGTERM`);
  if (result.code !== 0)
    throw new Error(`exited with code ${result.code} (signal ${result.signal}) on SIGTERM`);
  console.log(`stopped cleanly ${((Date.now() - stopping) / 1000).toFixed(1)} s after SIGTERM`);
}

try {
  await check();
} catch (error) {
  console.error(`boot check failed: ${error.message}\n--- server output ---\n${output}`);
  process.exitCode = 1;
} finally {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true, maxRetries: 5 });
}
