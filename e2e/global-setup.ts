import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startBackgroundStep, type BackgroundStep } from '#server/test/background-step.ts';
import serverSetup from '#server/test/global-setup.ts';
import { chromiumPath } from './browser.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file that holds the exit code of the client build once it ended ('' when none ran). */
    clientBuildStatus: string;
  }
}

/**
 * Builds the client the server will serve, then prepares the databases as the server tests do.
 * The build runs in a process of its own while the other projects' tests run (the browser files
 * run last, and wait for it: e2e/client-build.ts): on a fresh clone it took half a minute of
 * both cores before any test could start.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(chromiumPath())) {
    throw new Error(
      `Chromium not found at ${chromiumPath()}. Install it with: apt-get install -y chromium chromium-headless-shell (or set CHROMIUM_PATH).`,
    );
  }
  const build = bundleIsFresh() ? undefined : startClientBuild();
  project.provide('clientBuildStatus', build?.statusFile ?? '');
  const teardown = await serverSetup(project);
  return async () => {
    build?.stop();
    await teardown?.();
  };
}

/** The production build users get (Vitest itself runs with NODE_ENV=test). */
function startClientBuild(): BackgroundStep {
  return startBackgroundStep(
    'client-build',
    ['node_modules/vite/bin/vite.js', 'build', '--mode', 'production', '--logLevel', 'warn'],
    { ...process.env, NODE_ENV: 'production' },
  );
}

/** What the client bundle is built from. */
const BUNDLE_SOURCES = ['client', 'core', 'vite.config.ts', 'package-lock.json'];
const BUNDLE = 'dist/client/index.html';

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(
    stat.mtimeMs,
    ...readdirSync(path).map((entry) => newestChange(join(path, entry))),
  );
}

/**
 * A bundle built after the last change to its sources (by CI's build step just before, or by an
 * earlier run) is the one a build would make: building it again costs half a minute of CPU.
 */
function bundleIsFresh(): boolean {
  if (!existsSync(BUNDLE)) return false;
  const built = statSync(BUNDLE).mtimeMs;
  return BUNDLE_SOURCES.every((source) => newestChange(source) < built);
}
