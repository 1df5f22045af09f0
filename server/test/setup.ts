import { beforeAll } from 'vitest';
import { serverBuildReady } from './server-build.ts';
import { pgliteSnapshotFile, warmTestDb } from './test-db.ts';

// The migrated database snapshot is made while the unit tests run (server/test/global-setup.ts);
// a file starts once it is there. Waiting here, with a limit of its own, keeps a slow migration
// on a busy machine from counting against the file's own hooks. The server's bundle, built
// beside it in far less time, is there by then for the tests that start it in a process. The
// worker's first embedded database is opened here too, under the same limit: at a load of 25 a
// worker's first file spent its whole 60 s hook limit opening one (bad-input.test.ts).
beforeAll(async () => {
  await Promise.all([pgliteSnapshotFile(), serverBuildReady()]);
  await warmTestDb();
}, 900_000);
