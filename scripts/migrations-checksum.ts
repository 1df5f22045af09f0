// `npm run migrations:checksum`: lists each new migration's checksum in server/db/migrations.sha256.
// It never rewrites an entry: a listed migration whose file changed is an error to undo, not
// to record. Usage: tsx scripts/migrations-checksum.ts [migrations folder] [checksum list]
import { join } from 'node:path';
import { loadMigrations } from '#server/db/migrate.ts';
import {
  checksumListFile,
  checksumListProblems,
  listNewMigrations,
  readChecksumList,
} from '#server/db/migration-checksums.ts';
import { projectRoot } from '#server/util/project-root.ts';

const migrations = loadMigrations(process.argv[2] ?? join(projectRoot(), 'server/db/migrations'));
const file = process.argv[3] ?? checksumListFile();
const added = listNewMigrations(migrations, file);
for (const name of added) console.log(`listed ${name}`);
const problems = checksumListProblems(migrations, readChecksumList(file));
for (const problem of problems) console.error(problem);
process.exitCode = problems.length > 0 ? 1 : 0;
