import { existsSync } from 'node:fs';
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
