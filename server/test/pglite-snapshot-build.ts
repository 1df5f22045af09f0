// Run by the test setup in a process of its own (server/test/global-setup.ts): migrates a new
// embedded database and writes its data directory, gzipped, to the file named by the argument.
// The file appears whole or not at all (written beside it, then renamed).
import { renameSync, writeFileSync } from 'node:fs';
import { migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite-db.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: pglite-snapshot-build.ts FILE');
const pgl = await openPglite({});
await migrate(pgl);
const dump = await pgl.dumpDataDir();
await pgl.close();
// The part file is this process's own: when two setups build the same snapshot at once, each
// renames a whole file of its own onto the name (a shared part file was renamed away under the
// other, which then failed the whole run).
const part = `${file}.${process.pid}.part`;
writeFileSync(part, Buffer.from(dump));
renameSync(part, file);
