import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readLease } from './data-dir-lease.ts';
import { DEFAULT_STALE_MS, lockDataDir, type LeaseOwner } from './data-dir-lock.ts';
import type { Db } from './db.ts';
import { openPglite, type PgliteDb, type WriteFence } from './pglite-db.ts';

/** How often at most the write fence reads the lease file (pglite-worker.mjs). */
const FENCE_CHECK_MS = 100;

function holderOf(file: string): LeaseOwner | null {
  try {
    const seen = readLease(file);
    return seen === 'none' ? null : seen.owner;
  } catch {
    return null;
  }
}
import { openPostgres } from './postgres-db.ts';

export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  onPoolError?: (error: Error) => void;
  poolSize?: number;
  /** When the embedded folder's lease is taken over by a stale-judging starter (default 30 s). */
  lockStaleMs?: number;
  /** Stops this process's writing when another took the folder; by default it exits. */
  onLockLost?: (holder: LeaseOwner | null) => void;
}): Promise<Db> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, {
      ...(options.onPoolError ? { onError: options.onPoolError } : {}),
      ...(options.poolSize ? { max: options.poolSize } : {}),
    });
  }
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const staleMs = options.lockStaleMs ?? DEFAULT_STALE_MS;
  let db: PgliteDb | undefined;
  let stopped = false;
  // Whichever notices first, the heartbeat or the write fence: the database is fenced before
  // anything else runs, so that nothing this process still has queued reaches the other's files.
  const stop = (holder: LeaseOwner | null) => {
    if (stopped) return;
    stopped = true;
    void db?.fence().catch(() => undefined);
    (options.onLockLost ?? exitOnLockLost)(holder);
  };
  const release = lockDataDir(dataDir, { staleMs, onLost: stop });
  const fence: WriteFence = {
    file: release.file,
    instance: release.instance,
    // Far below the stale time: a process frozen long enough to lose its lease always reads
    // the file again before its next statement; between, a statement costs no file read.
    checkMs: Math.min(FENCE_CHECK_MS, staleMs / 4),
    onLost: () => stop(holderOf(release.file)),
  };
  try {
    // A first start runs initdb in the database's WebAssembly memory, which never shrinks (near
    // 900 MiB): run it in a worker of its own and open the new database afresh.
    if (!existsSync(join(dataDir, 'PG_VERSION')))
      await (await openPglite({ dataDir, fence })).close();
    db = await openPglite({ dataDir, fence });
    const opened = db;
    return {
      ...opened,
      close: async () => {
        try {
          await opened.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * Another process now writes the folder: this one stops, without closing the database (a close
 * writes a checkpoint into the other's files). The database is fenced already, so what is
 * answered in the moment before the exit is the refusal (503) of the write that found it out.
 */
function exitOnLockLost(holder: LeaseOwner | null): void {
  const by = holder ? `pid ${holder.pid} on host ${holder.host} (build ${holder.build})` : 'nobody';
  process.stderr.write(
    `Carryover stops: the lock of its embedded database is now held by ${by}; ` +
      'two processes must never write one data folder.\n',
  );
  setTimeout(() => process.exit(1), EXIT_GRACE_MS);
}

const EXIT_GRACE_MS = 100;
