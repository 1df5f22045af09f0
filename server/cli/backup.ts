// `npm run backup -- FILE`: one file with a consistent snapshot of the database, its keys and
// anchors, and a manifest (server/db/backup/backup-file.ts), taken while the server runs.
import { resolve } from 'node:path';
import { DatabaseInUseError } from '#server/db/data-dir-lock.ts';
import { openPostgres } from '#server/db/postgres-db.ts';
import type { BackupManifest } from '#server/db/backup/backup-file.ts';
import { readBackupHead } from '#server/db/backup/backup-file.ts';
import { requestLiveBackup } from '#server/db/backup/live-backup.ts';
import { takeBackup } from '#server/db/backup/take-backup.ts';
import type { Config } from '#server/config.ts';
import { fileArgument, openExistingEmbedded, runOperation, say } from './backup-operations.ts';

async function backup(config: Config, file: string): Promise<BackupManifest> {
  if (config.DATABASE_URL) {
    const db = await openPostgres(config.DATABASE_URL, { max: 1 });
    try {
      return await takeBackup(db, config, file);
    } finally {
      await db.close();
    }
  }
  let db;
  try {
    db = await openExistingEmbedded(config);
  } catch (error) {
    if (!(error instanceof DatabaseInUseError)) throw error;
    // The running server holds the folder: it writes the backup from its own connection.
    say(`The server is running on ${resolve(config.DATA_DIR)}: asking it for the backup…`);
    await requestLiveBackup(config.DATA_DIR, file);
    return (await readBackupHead(file)).manifest;
  }
  try {
    return await takeBackup(db, config, file);
  } finally {
    await db.close();
  }
}

runOperation('Backup', async (config, args) => {
  const file = fileArgument(args, 'npm run backup -- FILE');
  const started = Date.now();
  const m = await backup(config, file);
  const rows = Object.values(m.tables).reduce((a, b) => a + b, 0);
  say(`Backup written to ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  say(
    `  Carryover ${m.appVersion}, database ${m.databaseId} (${m.databaseKind}), taken ${m.takenAt}`,
  );
  say(
    `  ${m.migrations.length} migrations, ${Object.keys(m.tables).length} tables, ${rows} rows, ${m.chainHeads.length} audit chains`,
  );
  say('  It holds the keys: keep it where only those who may read the database can read it.');
});
