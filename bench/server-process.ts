import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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

/**
 * The CPU (ms) so far of the PostgreSQL backends of the database of `url` on this machine, found
 * by their process title in /proc (no statement, whose own backend would count): a backend that
 * ended keeps what it had used when last read (a pool closes idle connections), and the
 * backends are looked for again when one may have ended and every 100 reads. None on PGlite
 * (no `url`), whose CPU is its process's.
 */
export function backendsCpuOf(url: string | undefined): () => number {
  if (!url) return () => 0;
  const title = ` ${new URL(url).pathname.slice(1)} `;
  const used = new Map<number, number>();
  let reads = 0;
  const find = () => {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry) || used.has(Number(entry))) continue;
      try {
        const line = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
        if (line.startsWith('postgres: ') && line.includes(title))
          used.set(Number(entry), processCpuMs(Number(entry)));
      } catch {
        // ended meanwhile
      }
    }
  };
  return () => {
    let look = reads++ % 100 === 0;
    for (const [pid, before] of used) {
      const ms = processCpuMs(pid);
      if (ms === 0) look = true;
      else used.set(pid, Math.max(before, ms));
    }
    if (look) find();
    return [...used.values()].reduce((sum, ms) => sum + ms, 0);
  };
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
