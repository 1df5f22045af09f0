import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '#server/test/server-process.ts';
import { projectRoot } from '#server/util/project-root.ts';
import { SERVER_NODE_FLAGS } from '../scripts/server-node-flags.mjs';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawn to the first answered health request. */
  readyMs: number;
  /** Peak resident memory so far, in MiB (VmHWM). */
  peakRssMiB(): number;
  rssMiB(): number;
  /** User + system CPU of the server so far, in milliseconds (clock ticks of 10 ms). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** User + system CPU of a process so far, in milliseconds (clock ticks of 10 ms); 0 once it ended. */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

function procStatus(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
  return match ? Number(match[1]) / 1024 : NaN;
}

/**
 * Runs `npm start` exactly as a user does (node with the server's flags, scripts/start.mjs) and
 * waits for health; `nodeFlags` replaces the flags to compare them, `script` the program to start
 * an anchor the same way.
 */
export async function startServerProcess(
  env: Record<string, string>,
  nodeFlags: string[] = SERVER_NODE_FLAGS,
  script = 'scripts/start.mjs',
): Promise<ServerProcess> {
  const root = projectRoot();
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, join(root, script)], {
    cwd: root,
    // Load generators are one user at thousands of calls a second: far past any user's limit.
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      PORT: String(port),
      API_RATE_LIMIT_MAX: '1000000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/v2/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const readyMs = performance.now() - started;
  const pid = child.pid!;
  return {
    child,
    url,
    readyMs,
    peakRssMiB: () => procStatus(pid, 'VmHWM'),
    rssMiB: () => procStatus(pid, 'VmRSS'),
    cpuMs: () => processCpuMs(pid),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
