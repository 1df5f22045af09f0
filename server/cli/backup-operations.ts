import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig, type Config } from '#server/config.ts';
import type { Db } from '#server/db/db.ts';
import { NewerSchemaError, roleOfUrl } from '#server/db/migrate.ts';
import { openDatabase } from '#server/db/open.ts';
import { openPostgres } from '#server/db/postgres-db.ts';
import { BackupFileError } from '#server/db/backup/backup-file.ts';
import { KeyConflictError } from '#server/db/backup/backup-keys.ts';
import { LiveBackupError } from '#server/db/backup/live-backup.ts';
import {
  NewerBackupError,
  restoreBackup,
  RestoreCheckError,
  TargetNotEmptyError,
  type RestoreResult,
} from '#server/db/backup/restore-backup.ts';
import { DatabaseInUseError } from '#server/db/data-dir-lock.ts';
import { createAnchorStore } from '#server/modules/audit/audit-anchor.ts';
import { verifyChain } from '#server/modules/audit/audit-chain.ts';

/** What the commands print for a person or a site's script: one line each, then a summary. */
export const say = (line: string) => process.stdout.write(`${line}\n`);
export const warn = (line: string) => process.stderr.write(`${line}\n`);

/** A refusal or failure the command explains in a sentence (no stack). */
export class OperationError extends Error {}

/**
 * Errors that explain themselves in a sentence (a refusal, a damaged file, a database in use):
 * the message alone. Anything else is a fault, printed with its stack.
 */
const EXPLAINED = [
  OperationError,
  BackupFileError,
  DatabaseInUseError,
  KeyConflictError,
  LiveBackupError,
  NewerBackupError,
  NewerSchemaError,
  RestoreCheckError,
  TargetNotEmptyError,
];

/** Runs a command: its message and exit code 1 on failure, 0 once done. */
export function runOperation(
  name: string,
  main: (config: Config, args: string[]) => Promise<void>,
) {
  const args = process.argv.slice(2);
  (async () => main(loadConfig(), args))().then(
    () => process.exit(0),
    (error: unknown) => {
      if (error instanceof ConfigError)
        warn(`${error.message}\nSee .env.example for every variable.`);
      else if (EXPLAINED.some((kind) => error instanceof kind))
        warn(`${name} failed: ${(error as Error).message}`);
      else warn(`${name} failed: ${error instanceof Error ? error.stack : String(error)}`);
      process.exit(1);
    },
  );
}

export function fileArgument(args: string[], usage: string): string {
  const file = args.find((a) => !a.startsWith('-'));
  if (!file) throw new OperationError(`Which file? Usage: ${usage}`);
  // npm runs scripts in the package's folder; a relative name means where it was typed.
  return resolve(process.env.INIT_CWD ?? '.', file);
}

/** The embedded database of DATA_DIR, which must exist (opening makes one otherwise). */
export async function openExistingEmbedded(config: Config): Promise<Db> {
  if (!existsSync(join(resolve(config.DATA_DIR), 'PG_VERSION')))
    throw new OperationError(`There is no embedded database in ${resolve(config.DATA_DIR)}`);
  return openDatabase({ dataDir: config.DATA_DIR });
}

/**
 * Restores into the database `config` names: DATABASE_URL's server as the schema's owner
 * (DATABASE_OWNER_URL when given, granting DATABASE_URL's role), or an embedded DATA_DIR. Then
 * anchors the restored chains under the copy's new id, and verifies every chain against every
 * anchor that counts for it, as the verify route does: a correct restore reads intact.
 */
export async function restoreInto(
  config: Config,
  file: string,
): Promise<RestoreResult & { chains: number }> {
  const server = config.DATABASE_URL;
  const ownerUrl = config.DATABASE_OWNER_URL ?? server;
  if (!server && existsSync(join(resolve(config.DATA_DIR), 'PG_VERSION')))
    throw new OperationError(
      `${resolve(config.DATA_DIR)} already holds a database: a backup is restored only into an empty DATA_DIR.`,
    );
  const db = ownerUrl
    ? await openPostgres(ownerUrl, { max: 1 })
    : await openDatabase({ dataDir: config.DATA_DIR });
  try {
    const result = await restoreBackup(db, config, file, {
      appRole: config.DATABASE_OWNER_URL && server ? roleOfUrl(server) : undefined,
      warn,
      where: server ? `The database at DATABASE_URL` : resolve(config.DATA_DIR),
    });
    const chains = await sealAndVerify(db, config);
    return { ...result, chains };
  } finally {
    await db.close();
  }
}

async function sealAndVerify(db: Db, config: Config): Promise<number> {
  const store = createAnchorStore(config, warn);
  await store.write(db);
  const anchors = await store.read(db);
  const chains = await db.query<{ chain: string }>(
    'select chain from audit_chain_heads order by chain',
  );
  const broken: string[] = [];
  for (const { chain } of chains) {
    const check = await verifyChain(db, chain, anchors);
    if (!check.intact) broken.push(`${chain}: ${check.problem} at seq ${check.brokenSeq}`);
  }
  if (broken.length > 0)
    throw new OperationError(`The restored audit trail does not verify: ${broken.join('; ')}`);
  return chains.length;
}

export function describeRestore(result: RestoreResult & { chains: number }, file: string): void {
  const m = result.manifest;
  const rows = Object.values(m.tables).reduce((a, b) => a + b, 0);
  say(`Restored ${file}`);
  say(`  taken ${m.takenAt} by Carryover ${m.appVersion} from database ${m.databaseId}`);
  say(`  ${Object.keys(m.tables).length} tables, ${rows} rows: counts equal the backup's`);
  say(
    `  ${result.chains} audit chains verify intact; this copy's database id is ${result.databaseId}`,
  );
  if (result.migrated.length > 0) say(`  migrated on: ${result.migrated.join(', ')}`);
  for (const f of result.keyFiles) say(`  wrote ${f}`);
}
