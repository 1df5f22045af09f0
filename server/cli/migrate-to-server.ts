// `npm run migrate-to-server`: the embedded database of DATA_DIR into the empty PostgreSQL
// database at DATABASE_URL (as DATABASE_OWNER_URL when given), through a backup kept in
// DATA_DIR/backups: the same checks as a restore, keys and anchors included.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseInUseError } from '#server/db/data-dir-lock.ts';
import { BACKUP_SUFFIX, backupsDir } from '#server/db/backup/pre-migration-backup.ts';
import { takeBackup } from '#server/db/backup/take-backup.ts';
import {
  describeRestore,
  OperationError,
  openExistingEmbedded,
  restoreInto,
  runOperation,
  say,
} from './backup-operations.ts';

runOperation('The move to a server', async (config) => {
  if (!config.DATABASE_URL)
    throw new OperationError('Set DATABASE_URL to the empty PostgreSQL database to move to.');
  let source;
  try {
    source = await openExistingEmbedded(config);
  } catch (error) {
    if (error instanceof DatabaseInUseError)
      throw new OperationError(
        `${error.message} Stop the server first: what it wrote after the move would stay behind.`,
      );
    throw error;
  }
  const dir = backupsDir(config.DATA_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(
    dir,
    `before-move-${new Date().toISOString().replace(/[-:.]/g, '')}${BACKUP_SUFFIX}`,
  );
  try {
    await takeBackup(source, config, file);
  } finally {
    await source.close();
  }
  say(`The embedded database is kept as it was, and backed up to ${file}`);
  describeRestore(await restoreInto(config, file), file);
  say('Start the server with DATABASE_URL set; the embedded database is no longer used.');
});
