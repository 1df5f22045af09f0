import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

/*
 * Work a global setup starts in a process of its own and test files wait for: Vitest runs every
 * project's global setup before any test, so a setup that did its work itself kept both cores
 * idle while it ran (the client build, the migrated database snapshot). The tests that need the
 * work wait for its status file; the others run meanwhile.
 */

export interface BackgroundStep {
  /** Where the step's exit code and last errors are written when it ends. */
  statusFile: string;
  /** Stops the step if it still runs and removes its status file. */
  stop: () => void;
}

/** Starts `node ...args` with its output in .test-output/NAME.log. */
export function startBackgroundStep(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): BackgroundStep {
  mkdirSync('.test-output', { recursive: true });
  const statusFile = join('.test-output', `${name}-${process.pid}.status`);
  rmSync(statusFile, { force: true });
  const out = openSync(join('.test-output', `${name}.log`), 'w');
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', out, 'pipe'] });
  closeSync(out);
  let errors = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  child.on('close', (code) => {
    // Written whole under another name, then renamed: a test file waiting for the status file
    // read it between its creation and its write ("Unexpected end of JSON input" on a busy machine).
    const part = `${statusFile}.part`;
    writeFileSync(part, JSON.stringify({ code, errors: errors.slice(-4000) }));
    renameSync(part, statusFile);
  });
  return {
    statusFile,
    stop: () => {
      if (child.exitCode === null) child.kill();
      rmSync(statusFile, { force: true });
    },
  };
}

const waiting = new Map<string, Promise<void>>();

/**
 * Resolves once the step whose status file this is has ended well (at once for '': no step
 * ran), and fails with its errors otherwise. Asked once per worker and file name.
 */
export function backgroundStepDone(statusFile: string, what: string): Promise<void> {
  if (!statusFile) return Promise.resolve();
  let done = waiting.get(statusFile);
  if (!done) {
    done = (async () => {
      while (!existsSync(statusFile)) await new Promise((resolve) => setTimeout(resolve, 100));
      const status = JSON.parse(readFileSync(statusFile, 'utf8')) as {
        code: number | null;
        errors: string;
      };
      if (status.code !== 0)
        throw new Error(`${what} failed (exit ${status.code}):\n${status.errors}`);
    })();
    waiting.set(statusFile, done);
  }
  return done;
}

/*
 * Vitest loads each project's global setup as a module of its own: a step two projects need
 * (the server and browser projects, and the server tests' embedded pass) is kept on the
 * process's global object, started by the first setup and stopped when the last one is done.
 */
interface SharedStep<T> {
  value: T;
  users: number;
}

/** The step `key` of this run, started by `start` for its first user; `release` when done. */
export function sharedStep<T extends { stop: () => void }>(
  key: string,
  start: () => T,
): { value: T; release: () => void } {
  const slot = Symbol.for(`carryover.${key}`);
  const shared = globalThis as { [slot]?: SharedStep<T> };
  const step = (shared[slot] ??= { value: start(), users: 0 });
  step.users += 1;
  let released = false;
  return {
    value: step.value,
    release: () => {
      if (released) return;
      released = true;
      step.users -= 1;
      if (step.users > 0) return;
      step.value.stop();
      delete shared[slot];
    },
  };
}
