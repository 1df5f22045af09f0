import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { projectRoot } from '../util/project-root.ts';

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
  /** Modules loaded before the server, e.g. a test's job handlers (paths from the root). */
  preload?: string[];
}

/** Runs server/main.ts in a process of its own, as `npm start` does after building. */
export function spawnServer(env: Record<string, string>, { preload = [] }: SpawnOptions = {}) {
  const imports = preload.flatMap((path) => ['--import', `./${path}`]);
  const child = spawn(process.execPath, ['--import', 'tsx', ...imports, 'server/main.ts'], {
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
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}): ${output().stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy: ${output().stderr}`);
    }
    try {
      if ((await fetch(`${url}/api/v2/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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
