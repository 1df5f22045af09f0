import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LOCK_FILE, type LeaseOwner } from '#server/db/data-dir-lock.ts';
import { projectRoot } from '#server/util/project-root.ts';
import { builtModule } from './server-build.ts';

/** A host other than this one, as a lease names it. */
export const OTHER_HOST = 'other-host.example/boot-1/pid:[1]';

/**
 * A process that takes the lock when told: `go AT DIR STALE_MS [STEP GATE]` spins until the
 * moment AT (so that every starter tries at the same instant), tries the lock and answers `won`
 * or the error's name; `release` lets it go. It says `lost` if another takes its lease over.
 * With STEP, it says `held` the first time its takeover reaches that step and waits there until
 * the file GATE exists, as a process frozen at that point would.
 */
const STARTER = `
  import { existsSync } from 'node:fs';
  const { lockDataDir } = await import(process.argv[1]);
  const machine = process.argv[2] || undefined;
  let release;
  const say = (word) => process.stdout.write(word + ';');
  const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  const holdAt = (step, gate) => (at) => {
    if (at !== step || existsSync(gate)) return;
    say('held');
    while (!existsSync(gate)) sleep(10);
  };
  let pending = '';
  process.stdin.on('data', (chunk) => {
    pending += chunk;
    for (let end; (end = pending.indexOf('\\n')) >= 0; pending = pending.slice(end + 1)) {
      const [command, at, dir, staleMs, step, gate] = pending.slice(0, end).split(' ');
      if (command === 'release') {
        release?.();
        release = undefined;
        say('released');
        continue;
      }
      // Asleep until just before the moment, then spinning to it: spinning the whole 300 ms,
      // six starters could burn up to 1.8 s of CPU a round, which the other processes wait for.
      if (Number(at) - Date.now() > 20) sleep(Number(at) - Date.now() - 20);
      while (Date.now() < Number(at));
      try {
        release = lockDataDir(dir, {
          staleMs: Number(staleMs),
          machine,
          onLost: () => say('lost'),
          ...(step ? { onStep: holdAt(step, gate) } : {}),
        });
        say('won');
      } catch (error) {
        say(error.constructor.name);
      }
    }
  });
  say('ready');`;

export interface Starter {
  child: ChildProcess;
  tell(line: string): void;
  /** The next word it says. */
  next(): Promise<string>;
  /** What it said that no one asked for yet. */
  unheard(): string[];
}

/** A starter on this host, or on `machine`; `later` ends it when the test file is done. */
export function starter(later: (step: () => unknown) => void, machine = ''): Starter {
  const lock = pathToFileURL(builtModule('server/db/data-dir-lock.ts')).href;
  const child = spawn(process.execPath, ['--input-type=module', '-e', STARTER, lock, machine], {
    cwd: projectRoot(),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  later(() => child.kill('SIGKILL'));
  const words: string[] = [];
  let waiting: ((word: string) => void) | undefined;
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split(';');
    partial = parts.pop()!;
    words.push(...parts);
    while (waiting && words.length > 0) {
      const give = waiting;
      waiting = undefined;
      give(words.shift()!);
    }
  });
  return {
    child,
    tell: (line) => child.stdin!.write(`${line}\n`),
    unheard: () => [...words],
    next: () =>
      words.length > 0
        ? Promise.resolve(words.shift()!)
        : new Promise((resolve) => (waiting = resolve)),
  };
}

/** A lease as another build writes it, its heartbeat `ageMs` old. */
export function writeLease(dir: string, owner: Partial<LeaseOwner>, ageMs: number): void {
  const file = join(dir, LOCK_FILE);
  const full = {
    host: 'other-host.example',
    machine: OTHER_HOST,
    pid: 4242,
    build: '0.9.0',
    ...owner,
  };
  writeFileSync(
    file,
    `${full.pid}\n${JSON.stringify({ since: '2026-01-01T00:00:00Z', ...full })}\n`,
  );
  const then = new Date(Date.now() - ageMs);
  utimesSync(file, then, then);
}
