import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { lockDataDir } from './data-dir-lock.ts';
import type { Db } from './db.ts';
import { openPglite } from './pglite-db.ts';
import { openPostgres } from './postgres-db.ts';

export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  onPoolError?: (error: Error) => void;
  poolSize?: number;
}): Promise<Db> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, {
      ...(options.onPoolError ? { onError: options.onPoolError } : {}),
      ...(options.poolSize ? { max: options.poolSize } : {}),
    });
  }
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const release = lockDataDir(dataDir);
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
