import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A test file's cleanup, run after all its tests in reverse order, and temporary folders
 * removed by it.
 */
export function fileCleanup() {
  const steps: (() => unknown)[] = [];
  afterAll(async () => {
    for (const step of steps.reverse()) await step();
  });
  return {
    later: (step: () => unknown) => steps.push(step),
    tempDir(name: string): string {
      const dir = mkdtempSync(join(tmpdir(), `carryover-${name}-`));
      steps.push(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
      return dir;
    },
  };
}
