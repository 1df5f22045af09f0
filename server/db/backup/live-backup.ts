import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { copyFile, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Db } from '../db.ts';
import type { KeyConfig } from './backup-keys.ts';
import { takeBackup } from './take-backup.ts';

/*
 * A backup of the embedded database while the server runs. PGlite is one process's database and
 * its folder is locked by the running server, so no other process may read it: `npm run backup`
 * leaves a request in DATA_DIR/backups/requests/, the server (which looks there every second)
 * takes it, writes the backup from its own connection beside it, and the command copies it to
 * where it was asked for. Files in the data folder, not a signal or an HTTP call: it needs no
 * credentials nor the server's address, works for a process in another container that shares
 * the volume, and only someone who may read the data folder (and so the database) can ask.
 */

const POLL_MS = 1_000;

export function requestsDir(dataDir: string): string {
  return join(resolve(dataDir), 'backups', 'requests');
}

/** Serves backup requests until the returned stop is called; the timer keeps nothing alive. */
export function serveBackupRequests(
  db: Db,
  config: KeyConfig,
  log: { info: (message: string) => void; error: (error: unknown, message: string) => void },
): () => void {
  const dir = requestsDir(config.DATA_DIR);
  let busy = false;
  const serve = async () => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.request'))) {
      const id = name.slice(0, -'.request'.length);
      try {
        // The rename takes the request: a second server (never on one folder) could not too.
        await rename(join(dir, name), join(dir, `${id}.taken`));
      } catch {
        continue;
      }
      try {
        const manifest = await takeBackup(db, config, join(dir, `${id}.backup`));
        log.info(`backup ${id} written for npm run backup (${manifest.chainHeads.length} chains)`);
      } catch (error) {
        log.error(error, `backup ${id} failed`);
        await writeFile(join(dir, `${id}.error`), (error as Error).message);
      } finally {
        await rm(join(dir, `${id}.taken`), { force: true });
      }
    }
  };
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    serve()
      .catch((error: unknown) => log.error(error, 'reading backup requests failed'))
      .finally(() => (busy = false));
  }, POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The server holding DATA_DIR did not take the request: it is an older build, or hangs. */
export class LiveBackupError extends Error {}

/**
 * Asks the server that holds `dataDir` for a backup and copies it to `file`. Waits up to
 * `pickupMs` for the server to take the request, then as long as the backup takes.
 */
export async function requestLiveBackup(
  dataDir: string,
  file: string,
  options: { pickupMs?: number } = {},
): Promise<void> {
  const dir = requestsDir(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const id = randomUUID();
  const at = (suffix: string) => join(dir, `${id}.${suffix}`);
  await writeFile(at('request'), new Date().toISOString(), { mode: 0o600 });
  const deadline = Date.now() + (options.pickupMs ?? 15_000);
  for (;;) {
    await new Promise((done) => setTimeout(done, 200));
    if (existsSync(at('backup'))) break;
    if (existsSync(at('error'))) {
      const message = await readFile(at('error'), 'utf8');
      await rm(at('error'), { force: true });
      throw new LiveBackupError(`The running server could not write the backup: ${message}`);
    }
    if (existsSync(at('request')) && Date.now() > deadline) {
      await rm(at('request'), { force: true });
      throw new LiveBackupError(
        `The server that holds ${resolve(dataDir)} did not take the backup request: it may be ` +
          'an older build of Carryover, which cannot write a backup while it runs. Stop it and run the backup again.',
      );
    }
  }
  try {
    await copyFile(at('backup'), file);
  } finally {
    await rm(at('backup'), { force: true });
  }
}
