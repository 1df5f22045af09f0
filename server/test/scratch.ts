import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * What a test file leaves behind, undone after its last test in reverse order: temporary
 * folders, child processes, servers.
 */
export function scratch(prefix: string) {
  const undo: (() => unknown)[] = [];
  afterAll(async () => {
    for (const step of undo.reverse()) await step();
  });
  return {
    later: (step: () => unknown) => undo.push(step),
    tempDir(): string {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      undo.push(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
      return dir;
    },
  };
}
