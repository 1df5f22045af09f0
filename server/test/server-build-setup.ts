import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { projectRoot } from '../util/project-root.ts';
import { sharedStep, startBackgroundStep } from './background-step.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The folder of this run's server bundle and the status file of the step that builds it
     * (server/test/server-build.ts reads them).
     */
    serverBuild: string;
    serverBuildStatus: string;
  }
}

/**
 * Modules the tests run in child processes besides the build's own entries (main, the CLIs): a
 * CLI, the lock a starter takes, a job handler loaded into a server before it.
 */
const TEST_ENTRIES = [
  'server/cli/qualification.ts',
  'server/cli/seed-demo.ts',
  'server/db/data-dir-lock.ts',
  'server/test/slow-job.ts',
];

/*
 * The server as `npm run build:server` bundles it, built once per run in the background for the
 * child processes the server tests start (a server, a CLI, a process racing for the data
 * folder's lock). Started through tsx, each child compiled the server's sources again: some 3 s
 * of CPU a start, against about 1 s for the bundle.
 */
export default function setup(project: TestProject) {
  // One build for every project that runs server tests (sharedStep).
  const build = sharedStep('serverBuild', () => {
    const dir = join(projectRoot(), '.test-output', `server-build-${process.pid}`);
    const step = startBackgroundStep('server-build', [
      join(projectRoot(), 'scripts/build-server.mjs'),
      dir,
      ...TEST_ENTRIES,
    ]);
    return {
      dir,
      statusFile: step.statusFile,
      stop: () => {
        step.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  });
  project.provide('serverBuild', build.value.dir);
  project.provide('serverBuildStatus', build.value.statusFile);
  return build.release;
}
