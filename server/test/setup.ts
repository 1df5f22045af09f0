import { beforeAll } from 'vitest';
import { pgliteSnapshotFile } from './test-db.ts';

// The migrated database snapshot is made while the unit tests run (server/test/global-setup.ts);
// a file starts once it is there. Waiting here, with a limit of its own, keeps a slow migration
// on a busy machine from counting against the file's own hooks.
beforeAll(async () => {
  await pgliteSnapshotFile();
}, 900_000);
