import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { closeTestContexts, startTestContexts, testPages } from './browser.ts';
import { takeBrowserErrors } from './browser-errors.ts';
import { pgliteSnapshotFile } from '#server/test/test-db.ts';
import { clientBuilt } from './client-build.ts';
import { saveFailure } from './failure-record.ts';

// The client and the migrated database snapshot are made while the other projects' tests run; a
// file starts once both are there. A build on a busy machine can take minutes.
beforeAll(async () => {
  await Promise.all([clientBuilt(), pgliteSnapshotFile()]);
}, 900_000);

// Every browser test fails on an error in the page, even when its own steps passed: an uncaught
// error is a fault the user meets, whatever the screen shows.
function expectNoBrowserErrors(when: string): void {
  const errors = takeBrowserErrors();
  if (errors.length === 0) return;
  throw new Error(
    `The browser reported ${errors.length} error(s) ${when}:\n${errors.map((e) => `- ${e}`).join('\n')}`,
  );
}

beforeEach(({ task }) => startTestContexts(task.result?.retryCount ?? 0));
afterEach(async ({ task }) => {
  try {
    const errors = task.result?.errors ?? [];
    if (errors.length > 0) {
      await saveFailure(
        `${task.file.name}-${task.name}-try${task.result?.retryCount ?? 0}`,
        errors.map((e) => e.message),
        testPages(),
      );
    }
  } finally {
    await closeTestContexts();
  }
});
afterEach(() => expectNoBrowserErrors('during this test'));
afterAll(() => expectNoBrowserErrors('after the last test'));
