import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from './util/project-root.ts';

const root = projectRoot();
/**
 * Stand-ins a failed test may leave running, with the start time the kernel gave each. A pid is
 * given out again once its process ended, within seconds on a busy machine (pid_max 32,768):
 * killed by pid alone, a leftover that had already stopped could be a test worker by then.
 */
const leftovers = new Map<number, string>();
/** The process's start time since boot (field 22 of /proc/PID/stat); undefined once it is gone. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}
afterAll(() => {
  for (const [pid, started] of leftovers) {
    if (startTimeOf(pid) !== started) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The stand-in prints its pid first, then whatever it says on SIGTERM. */
async function announcedPid(stdout: Readable) {
  let output = '';
  const pid = await new Promise<number>((resolve) => {
    stdout.on('data', (chunk) => {
      output += chunk;
      const match = /pid (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
  });
  const started = startTimeOf(pid);
  if (started !== undefined) leftovers.set(pid, started);
  return { pid, output: () => output };
}

/**
 * What `npm start` does: a shell runs node, and npm's SIGTERM reaches only the shell. The node
 * process stands in for the server: it says when SIGTERM reaches it, and exits then.
 */
async function shellWithNodeChild(watchParent: boolean) {
  const module = pathToFileURL(join(root, 'scripts/stop-with-parent.mjs')).href;
  const code = [
    `process.on('SIGTERM', () => { console.log('stopping'); process.exit(0); });`,
    watchParent ? `(await import('${module}')).stopWithParent(undefined, 100);` : '',
    `setInterval(() => {}, 1000);`,
    `console.log('pid', process.pid);`,
  ].join('\n');
  // The second command keeps the shell from replacing itself with node.
  const shell = spawn('sh', ['-c', `node --input-type=module -e "$CODE"; true`], {
    env: { ...process.env, CODE: code },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const { pid, output } = await announcedPid(shell.stdout);
  return { shell, pid, output };
}

async function stillRunningAfter(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isRunning(pid)) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return isRunning(pid);
}

describe('npm start and SIGTERM', () => {
  it('without the watch, the server outlives the shell npm signals (the fault)', async () => {
    const { shell, pid } = await shellWithNodeChild(false);
    shell.kill('SIGTERM');
    expect(await stillRunningAfter(pid, 1_000)).toBe(true);
  });

  it('with it, the server gets SIGTERM and stops when the shell ends', async () => {
    const { shell, pid, output } = await shellWithNodeChild(true);
    shell.kill('SIGTERM');
    expect(await stillRunningAfter(pid, 5_000)).toBe(false);
    // What it printed as it stopped may still be in the pipe when it is gone.
    await expect.poll(output).toContain('stopping');
  });

  /** `npm start` over a stand-in server that starts as scripts/start.mjs does. */
  async function npmStartStandIn() {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const dir = mkdtempSync(join(tmpdir(), 'carryover-npm-start-'));
    mkdirSync(join(dir, 'scripts'));
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({
        name: 'start-check',
        version: '1.0.0',
        scripts: { start: pkg.scripts.start },
      }),
    );
    // The real start's opening lines (the watch of its parent), then a server that stays.
    const start = readFileSync(join(root, 'scripts/start.mjs'), 'utf8');
    const opening = start.slice(0, start.indexOf('stopWithParent();') + 'stopWithParent();'.length);
    expect(opening).toContain("if (process.env.npm_lifecycle_event === 'start')");
    copyFileSync(
      join(root, 'scripts/stop-with-parent.mjs'),
      join(dir, 'scripts/stop-with-parent.mjs'),
    );
    writeFileSync(
      join(dir, 'scripts/start.mjs'),
      `${opening}
       process.on('SIGTERM', () => { console.log('stopping'); process.exit(0); });
       setInterval(() => {}, 1000);
       console.log('pid', process.pid);`,
    );
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const { pid, output } = await announcedPid(npm.stdout);
    return { npm, pid, output, remove: () => rmSync(dir, { recursive: true, force: true }) };
  }

  // SIGTERM: npm passes it on to the server, which runs in place of npm's shell. SIGKILL: npm
  // cannot, and the server sees its parent gone.
  it.each(['SIGTERM', 'SIGKILL'] as const)(
    'a server started by npm start stops, gracefully, when npm gets %s',
    async (signal) => {
      const { npm, pid, output, remove } = await npmStartStandIn();
      try {
        npm.kill(signal);
        expect(await stillRunningAfter(pid, 5_000)).toBe(false);
        // Its last words may still be in the pipe when it is gone (a CI run read them too soon).
        await expect.poll(output).toContain('stopping');
      } finally {
        remove();
      }
    },
  );
});
