import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { LongFilesFirst } from './scripts/long-files-first.ts';
import { EMBEDDED_DRIVER_FILES, EMBEDDED_ONLY_FILES } from './server/test/embedded-only.ts';

/** A run on a PostgreSQL server (npm test finds one: scripts/test.mjs), or all on PGlite. */
const onServer = Boolean(process.env.DATABASE_URL);

/** The client's unit files that mock a module or set a storage global. */
const CLIENT_FILES_WITH_GLOBALS = [
  'client/api/http-error-handler.test.ts',
  'client/account/login-query.test.ts',
  'client/session/idle-clock.test.ts',
];

export default defineConfig({
  test: {
    // Vitest's default on two cores is one worker, which runs every file in turn. Most of a
    // server test's time is spent waiting (databases, child processes, HTTP), so four files at
    // once keep two cores busy. The browser files run after the others, in a group of their own:
    // Vitest keeps a worker (and the modules it loaded) for the next file only when that file is
    // of the same project, and files of two projects side by side cost a new worker nearly
    // every file (import time 317 s of a 792 s run, measured).
    maxWorkers: Math.max(4, availableParallelism()),
    sequence: { sequencer: LongFilesFirst },
    projects: [
      // Vitest's 5 s default is meant for a machine of its own: these files share two cores
      // with the server tests, and a property test of 2,000 cases took 5.8 s there.
      ...[
        // Files that test pure functions (no module mocked, no global set): one worker runs file
        // after file with the modules it loaded, instead of a new process a file (the core's 68
        // files: 18 s of CPU against 55 s, measured).
        { name: 'core', include: ['core/**/*.test.ts'], isolate: false },
        {
          name: 'client',
          include: ['client/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...CLIENT_FILES_WITH_GLOBALS],
          isolate: false,
        },
        // These mock modules or set storage globals, which would reach the next file of a worker.
        { name: 'client-isolated', include: CLIENT_FILES_WITH_GLOBALS, isolate: true },
        { name: 'scripts', include: ['scripts/**/*.test.ts'], isolate: true },
      ].map((project) => ({
        test: { ...project, environment: 'node', testTimeout: 30_000 },
      })),
      // Component tests of the client's forms in a simulated browser (pure tests stay in 'client').
      {
        // Packages as the browser build takes them: antd's ES modules (its 'module' field), not
        // its CommonJS copy, so the bundle below imports react-dom instead of requiring it.
        resolve: { mainFields: ['module'] },
        test: {
          name: 'client-dom',
          include: ['client/**/*.dom.test.tsx'],
          environment: 'happy-dom',
          // A render, a conflict and a reload with the whole suite running beside it: the record
          // drawer's test took 38 s at a load of 20 on two cores.
          testTimeout: 60_000,
          // antd and its icons are hundreds of modules: bundled once into a few files (cached in
          // node_modules/.vite), each test file loads them in a second of CPU less. react-dom stays
          // outside the bundle (react is outside by Vitest's rule), so antd's portals and the
          // testing library's render share one React; dayjs is bundled as its own entry, so the
          // app's dates and antd's pickers share one dayjs with the same plugins.
          deps: {
            optimizer: {
              client: {
                enabled: true,
                include: ['antd', '@ant-design/icons', 'dayjs'],
                exclude: ['react-dom'],
              },
            },
          },
          // A render allocates much short-lived garbage: a larger young generation collects it
          // in fewer pauses (about 0.7 s of CPU less per file measured on the larger files).
          execArgv: ['--max-semi-space-size=32'],
        },
      },
      serverProject({
        name: 'server',
        include: ['server/**/*.test.ts'],
        // On a server, the files that never reach one run in the embedded pass only.
        exclude: onServer
          ? [...configDefaults.exclude, ...EMBEDDED_ONLY_FILES]
          : configDefaults.exclude,
      }),
      // On a server run, the embedded database's own files and its driver's (README, "Which tests
      // run on which database"): the same files again with the server's URLs emptied.
      ...(onServer
        ? [
            serverProject({
              name: 'server-embedded',
              include: [...EMBEDDED_ONLY_FILES, ...EMBEDDED_DRIVER_FILES],
              env: { DATABASE_URL: '', DATABASE_OWNER_URL: '', DATABASE_SUPERUSER_URL: '' },
            }),
          ]
        : []),
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/global-setup.ts'],
          // Fails each test on an error in the browser (e2e/browser-errors.ts).
          setupFiles: ['e2e/setup.ts'],
          // As on the server project: each file has its own app, database and browser.
          isolate: false,
          // A scenario of a whole study (three runs entered on the run screen) or an approval by
          // two users takes 20-30 s alone; with two suites and more at once (load 35-42 on two
          // cores) they took 111-128 s and failed at 120. A step's own 50 s still ends a hang.
          testTimeout: 300_000,
          hookTimeout: 120_000,
          // expect.poll gives up after 1 s by default: a page that answers after a signature's
          // password check on a loaded machine takes longer, while the page itself is right.
          expect: { poll: { timeout: 20_000, interval: 100 } },
          // After the other projects, four files at a time: a step mostly waits on the page, and
          // one file waits out real idle timeouts for 100 s (idle-warning) with the cores free.
          // Three at a time, CI's quiet run spent 372 s on 943 s of browser files.
          sequence: { groupOrder: 1 },
          maxWorkers: 4,
          // No retry (issue 27: flakes are fixed, not retried into green): the 54 files passed
          // with none, at a load of 4 to 31 on two cores, and in CI runs on a quiet machine.
        },
      },
    ],
  },
});

/** A project of server tests: `name`, its files, and what differs between the passes. */
function serverProject(options: {
  name: string;
  include: string[];
  exclude?: string[];
  env?: Record<string, string>;
}): TestProjectInlineConfiguration {
  return {
    test: {
      ...options,
      environment: 'node',
      globalSetup: ['server/test/global-setup.ts', 'server/test/server-build-setup.ts'],
      // Waits for the migrated database snapshot and the server's bundle the global setups
      // make in the background.
      setupFiles: ['server/test/setup.ts'],
      // Each file starts its own server on its own database, so nothing leaks between files
      // through modules; loading the server's modules once per worker instead of once per file
      // took a quarter off the project's time (measured on 8 files).
      isolate: false,
      // Generous for child processes and large exports when the machine is shared and busy.
      // A file's setup does a whole file's work at once: a migration test's database before
      // its migration is 3 to 6 s of CPU (an empty database and the migrations up to it),
      // which outlasted 60 s at a load of 17, the load of two suites at once (issue 27).
      testTimeout: 90_000,
      hookTimeout: 120_000,
      // expect.poll's 1 s default is the time a lost LISTEN connection waits before it
      // connects again (pg-channel-watch.ts): on a busy machine a poll must outlast it.
      expect: { poll: { timeout: 20_000, interval: 100 } },
    },
  };
}
