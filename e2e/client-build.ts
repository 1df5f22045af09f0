import { existsSync, readFileSync } from 'node:fs';
import { inject } from 'vitest';

let built: Promise<void> | undefined;

/**
 * Waits for the client build the global setup started (e2e/global-setup.ts), once per worker, and
 * fails with the build's errors when it failed. Resolves at once when the bundle was fresh.
 */
export function clientBuilt(): Promise<void> {
  built ??= (async () => {
    const statusFile = inject('clientBuildStatus');
    if (!statusFile) return;
    while (!existsSync(statusFile)) await new Promise((resolve) => setTimeout(resolve, 250));
    const status = JSON.parse(readFileSync(statusFile, 'utf8')) as {
      code: number | null;
      errors: string;
    };
    if (status.code !== 0)
      throw new Error(`The client build failed (exit ${status.code}):\n${status.errors}`);
  })();
  return built;
}
