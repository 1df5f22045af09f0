import { inject } from 'vitest';
import { backgroundStepDone } from '#server/test/background-step.ts';

/**
 * Waits for the client build the global setup started (e2e/global-setup.ts), once per worker, and
 * fails with the build's errors when it failed. Resolves at once when the bundle was fresh.
 */
export function clientBuilt(): Promise<void> {
  return backgroundStepDone(inject('clientBuildStatus'), 'The client build');
}
