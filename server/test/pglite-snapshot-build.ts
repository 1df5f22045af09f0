// Run by the test setup in a process of its own (server/test/global-setup.ts): writes, gzipped,
// the data directory of a new embedded database as initdb leaves it (the second argument), of
// the same database migrated but for the last migration, the schema of the build before (the
// third), then migrated (the first). Each file appears whole or not at all (written beside it,
// then renamed).
import { renameSync, writeFileSync } from 'node:fs';
import { loadMigrations, migrate } from '../db/migrate.ts';
import { openPglite } from '../db/pglite-db.ts';

const [file, emptyFile, beforeLastFile] = process.argv.slice(2);
if (!file || !emptyFile || !beforeLastFile)
  throw new Error('usage: pglite-snapshot-build.ts FILE EMPTY_FILE BEFORE_LAST_FILE');

// The part file is this process's own: when two setups build the same snapshot at once, each
// renames a whole file of its own onto the name (a shared part file was renamed away under the
// other, which then failed the whole run).
function writeWhole(name: string, dump: ArrayBuffer): void {
  const part = `${name}.${process.pid}.part`;
  writeFileSync(part, Buffer.from(dump));
  renameSync(part, name);
}

const pgl = await openPglite({});
writeWhole(emptyFile, await pgl.dumpDataDir());
const last = loadMigrations().at(-1)!.name;
await migrate(pgl, { migrations: loadMigrations().filter((m) => m.name < last) });
writeWhole(beforeLastFile, await pgl.dumpDataDir());
await migrate(pgl);
writeWhole(file, await pgl.dumpDataDir());
await pgl.close();
