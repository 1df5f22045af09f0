import { join } from 'node:path';
import { inject } from 'vitest';
import { backgroundStepDone } from './background-step.ts';

/*
 * The run's bundle of the server (server/test/server-build-setup.ts), for the child processes
 * the tests start.
 */

/** Resolves once the run's build is there (each test file waits for it in server/test/setup.ts). */
export function serverBuildReady(): Promise<void> {
  return backgroundStepDone(inject('serverBuildStatus'), 'Building the server');
}

/**
 * The built module of `source` (a path below server/, e.g. 'server/main.ts'): an entry of the
 * build, read once the setup waited for it.
 */
export function builtModule(source: string): string {
  const dir = inject('serverBuild');
  if (!dir) throw new Error('no server build in this run (server/test/server-build-setup.ts)');
  return join(dir, source.replace(/^server\//, '').replace(/\.ts$/, '.js'));
}
