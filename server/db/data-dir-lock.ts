import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Another live process holds the embedded database this one was asked to open. */
export class DatabaseInUseError extends Error {}

export const LOCK_FILE = 'carryover.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Embedded PostgreSQL is one process's database: a second process opening the same directory
 * (a second server, `npm run seed:demo` beside a running one) would write over the first one's
 * data, and what one of them wrote would vanish. The holder's pid sits in a lock file; a lock of
 * a process that no longer runs (a crash, or this very pid reused in a new container) is taken
 * over. Returns the release, which removes the lock file.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = join(dataDir, LOCK_FILE);
  for (let attempt = 0; ; attempt += 1) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
    }
    const holder = holderOf(file);
    if (holder !== null && holder !== process.pid && isAlive(holder)) {
      throw new DatabaseInUseError(
        `The embedded database in ${dataDir} is in use by another Carryover process (pid ${holder}). ` +
          `Stop that server first, or use a PostgreSQL server (DATABASE_URL) that several processes can share. ` +
          `If no such process runs, delete ${file}.`,
      );
    }
    rmSync(file, { force: true });
  }
  return () => {
    if (holderOf(file) === process.pid) rmSync(file, { force: true });
  };
}
