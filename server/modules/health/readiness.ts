import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isConnectionLost, READ_ONLY, type Db } from '#server/db/db.ts';
import { loadMigrations } from '#server/db/migrate.ts';
import { isDiskFull } from '#server/util/disk-full.ts';

/**
 * Why an instance is not ready, by check: `message` is for the caller (it names no file or
 * server), `detail` for the log.
 */
export interface NotReady {
  check: 'database' | 'migrations' | 'write' | 'dataDir';
  problem: 'unreachable' | 'timeout' | 'pending' | 'unknown' | 'diskFull' | 'readOnly' | 'failed';
  message: string;
  detail?: string;
}

export interface Ready {
  migrations: number;
}

/** A database busier than this (PGlite's one connection held by a long import) is not ready. */
export const READY_TIMEOUT_MS = 5_000;

let buildMigrations: readonly string[] | undefined;
function migrationsOfThisBuild(): readonly string[] {
  buildMigrations ??= loadMigrations().map((m) => m.name);
  return buildMigrations;
}

class Timeout extends Error {}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Timeout(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

function detailOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function writeProblem(check: 'write' | 'dataDir', error: unknown): NotReady {
  const detail = detailOf(error);
  if (isDiskFull(error))
    return {
      check,
      problem: 'diskFull',
      message: 'the disk is full, so nothing can be saved',
      detail,
    };
  if (error instanceof Timeout)
    return { check, problem: 'timeout', message: 'the database did not answer in time', detail };
  if (check === 'write' && isConnectionLost(error))
    return { check, problem: 'unreachable', message: 'the database does not answer', detail };
  // 25006: a read-only transaction, e.g. a standby server after a fail-over.
  if ((error as { code?: unknown }).code === '25006')
    return { check, problem: 'readOnly', message: 'the database refuses writes', detail };
  const what = check === 'write' ? 'the database' : 'the data folder';
  return { check, problem: 'failed', message: `${what} refused a test write`, detail };
}

/** A row written, committed and deleted: what a user's save needs from the database. */
async function probeWrite(db: Db): Promise<void> {
  const [row] = await db.query<{ id: number }>(
    'insert into health_probe default values returning id',
  );
  // Also rows an earlier probe left behind when its delete failed.
  await db.query('delete from health_probe where id <= $1', [row!.id]);
}

/**
 * The embedded database writes its files into the data folder: a file written, flushed to disk
 * and removed there fails as the database's next write would on a full or read-only volume.
 */
async function probeDataDir(dataDir: string): Promise<void> {
  const file = join(dataDir, '.ready-probe');
  const handle = await open(file, 'w');
  try {
    await handle.writeFile(Buffer.alloc(4096, 1));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rm(file, { force: true });
}

function migrationProblem(applied: readonly string[]): NotReady | undefined {
  const known = migrationsOfThisBuild();
  const done = new Set(applied);
  const pending = known.filter((name) => !done.has(name));
  if (pending.length > 0)
    return {
      check: 'migrations',
      problem: 'pending',
      message: `migrations of this build are not applied: ${pending.join(', ')}`,
    };
  const ours = new Set(known);
  const unknown = applied.filter((name) => !ours.has(name));
  if (unknown.length > 0)
    return {
      check: 'migrations',
      problem: 'unknown',
      message: `the database has migrations this build does not know: ${unknown.join(', ')}`,
    };
  return undefined;
}

/**
 * Whether this instance can serve users: the database answers, its schema is this build's, and
 * a write is committed; with `dataDir` (the embedded database's), also a file written there.
 */
export async function checkReadiness(
  db: Db,
  options: { dataDir?: string | undefined; timeoutMs?: number },
): Promise<Ready | NotReady> {
  const timeoutMs = options.timeoutMs ?? READY_TIMEOUT_MS;
  let applied: string[];
  try {
    const rows = await within(
      db.query<{ name: string }>(`${READ_ONLY}select name from schema_migrations`),
      timeoutMs,
    );
    applied = rows.map((r) => r.name);
  } catch (error) {
    const timeout = error instanceof Timeout;
    return {
      check: 'database',
      problem: timeout ? 'timeout' : 'unreachable',
      message: timeout ? 'the database did not answer in time' : 'the database does not answer',
      detail: detailOf(error),
    };
  }
  const migrations = migrationProblem(applied);
  if (migrations) return migrations;
  try {
    await within(probeWrite(db), timeoutMs);
  } catch (error) {
    return writeProblem('write', error);
  }
  if (options.dataDir) {
    try {
      await within(probeDataDir(options.dataDir), timeoutMs);
    } catch (error) {
      return writeProblem('dataDir', error);
    }
  }
  return { migrations: applied.length };
}
