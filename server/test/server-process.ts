import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../util/project-root.ts';
import { builtModule } from './server-build.ts';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote so far. */
  output(): { stdout: string; stderr: string };
  /** Stops it with SIGTERM (SIGKILL after 10 s) and resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** A port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/**
 * This process's environment less the suite's own database URLs: a server process gets the
 * database its test names, never the one the suite runs on.
 */
export function processEnvWithoutDatabase(): NodeJS.ProcessEnv {
  const {
    DATABASE_URL: _url,
    DATABASE_OWNER_URL: _owner,
    DATABASE_SUPERUSER_URL: _super,
    ...rest
  } = process.env;
  return rest;
}

export interface SpawnOptions {
  /**
   * Modules loaded before the server, e.g. a test's job handlers (paths from the root, each an
   * entry of the run's build: server/test/server-build-setup.ts).
   */
  preload?: string[];
}

/**
 * Node's arguments that run a module of the server from the run's bundle of it, as `npm start`
 * runs its build (server/test/server-build.ts), with test modules of the same bundle loaded
 * first: they share the server's module instances (a job handler registers in its registry).
 */
export function serverModuleArgs(source: string, preload: string[] = []): string[] {
  const imports = preload.flatMap((path) => ['--import', pathToFileURL(builtModule(path)).href]);
  return ['--enable-source-maps', ...imports, builtModule(source)];
}

/** Runs server/main.ts in a process of its own, as `npm start` does after building. */
export function spawnServer(env: Record<string, string>, { preload = [] }: SpawnOptions = {}) {
  const child = spawn(process.execPath, serverModuleArgs('server/main.ts', preload), {
    cwd: projectRoot(),
    env: {
      ...processEnvWithoutDatabase(),
      LOG_LEVEL: 'warn',
      SERVE_CLIENT: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return { child, output: () => ({ stdout, stderr }) };
}

/**
 * Runs the server as spawnServer does and waits until it answers health: for tests about the
 * process itself (crashes, signals, locks).
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: SpawnOptions = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const { child, output } = spawnServer({ PORT: String(port), ...env }, options);
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, { child, output }, 120_000);
  return {
    child,
    url,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      return child.exitCode;
    },
  };
}

/**
 * Waits until the server answers health, or fails with its output once it has exited. With a
 * deadline, a server still silent then is killed; without one, the test's own timeout bounds
 * the wait (a first start that creates the database took over 120 s at a load of 25 on two
 * cores, issue 27).
 */
export async function waitForHealth(
  url: string,
  { child, output }: Pick<ServerProcess, 'child' | 'output'>,
  deadlineMs?: number,
): Promise<void> {
  const deadline = deadlineMs === undefined ? Infinity : Date.now() + deadlineMs;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/v2/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}): ${output().stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy: ${output().stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
