import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default on two cores is one worker, which runs every file in turn. Most of a
    // server test's time is spent waiting (databases, child processes, HTTP), so three files at
    // once on two cores take less than half the time of one (measured on 23 server files).
    maxWorkers: Math.max(3, availableParallelism()),
    projects: [
      { test: { name: 'core', include: ['core/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'client', include: ['client/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'scripts', include: ['scripts/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['server/test/global-setup.ts'],
          // Generous for child processes and large exports when the machine is shared and busy.
          testTimeout: 90_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          // Fails each test on an error in the browser (e2e/browser-errors.ts).
          setupFiles: ['e2e/setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // expect.poll gives up after 1 s by default: a page that answers after a signature's
          // password check on a loaded machine takes longer, while the page itself is right.
          expect: { poll: { timeout: 20_000, interval: 100 } },
          // After the other projects, two files at a time: each has its own server, database
          // and browser, and a step mostly waits on the page.
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
          // A browser step can miss its timeout when other jobs load the two cores; one retry
          // keeps such a stall from failing the run, while a real fault still fails twice.
          retry: 1,
        },
      },
    ],
  },
});
