import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { lockDataDir, type LeaseOwner } from './data-dir-lock.ts';
import type { Db } from './db.ts';
import { openPglite } from './pglite-db.ts';
import { openPostgres } from './postgres-db.ts';

export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  onPoolError?: (error: Error) => void;
  poolSize?: number;
  /** When the embedded folder's lease is taken over by a stale-judging starter (default 30 s). */
  lockStaleMs?: number;
  /** Stops this process's writing when another took the folder; by default it exits at once. */
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
  const release = lockDataDir(dataDir, {
    ...(options.lockStaleMs ? { staleMs: options.lockStaleMs } : {}),
    onLost: options.onLockLost ?? exitOnLockLost,
  });
  try {
    // A first start runs initdb in the database's WebAssembly memory, which never shrinks (near
    // 900 MiB): run it in a worker of its own and open the new database afresh.
    if (!existsSync(join(dataDir, 'PG_VERSION'))) await (await openPglite({ dataDir })).close();
    const db = await openPglite({ dataDir });
    return {
      ...db,
      close: async () => {
        try {
          await db.close();
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
 * Another process now writes the folder: this one stops at once, without closing the database
 * (a close writes a checkpoint into the other's files) and without answering another request.
 */
function exitOnLockLost(holder: LeaseOwner | null): void {
  const by = holder ? `pid ${holder.pid} on host ${holder.host} (build ${holder.build})` : 'nobody';
  process.stderr.write(
    `Carryover stops: the lock of its embedded database is now held by ${by}; ` +
      'two processes must never write one data folder.\n',
  );
  process.exit(1);
}
