import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A test file's cleanup, run after all its tests in reverse order (temporary folders, child
 * processes, servers), and temporary folders removed by it, named `name` unless told otherwise.
 */
export function fileCleanup(name = 'test') {
  const steps: (() => unknown)[] = [];
  afterAll(async () => {
    for (const step of steps.reverse()) await step();
  });
  return {
    later: (step: () => unknown) => steps.push(step),
    tempDir(folder = name): string {
      const dir = mkdtempSync(join(tmpdir(), `carryover-${folder}-`));
      steps.push(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
      return dir;
    },
  };
}
