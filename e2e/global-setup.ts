import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';
import serverSetup from '#server/test/global-setup.ts';
import { chromiumPath } from './browser.ts';

/** Builds the client the server will serve, then prepares the databases as the server tests do. */
export default async function setup(project: TestProject) {
  if (!existsSync(chromiumPath())) {
    throw new Error(
      `Chromium not found at ${chromiumPath()}. Install it with: apt-get install -y chromium chromium-headless-shell (or set CHROMIUM_PATH).`,
    );
  }
  if (bundleIsFresh()) return serverSetup(project);
  // Vitest runs with NODE_ENV=test; the app under test is the production build users get.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: 'vite.config.ts', logLevel: 'warn', mode: 'production' });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  return serverSetup(project);
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
