import module from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  changeCounter,
  LEASE_LOST,
  type ChangeCounter,
  type Db,
  type Queryable,
  type SqlValue,
} from './db.ts';

/**
 * The embedded database runs in a worker thread (pglite-worker.mjs), one PGlite there for this
 * Db. Each message carries an id, answered by `{ id, value }` or `{ id, error }`:
 * - `query` (sql, params) and `exec` (sql), inside the open transaction `tx` when it is given;
 * - `begin` (tx) opens transaction number `tx`; PGlite's own mutex holds every other statement
 *   until `end` (tx, commit) commits or rolls it back;
 * - `dump` returns the data directory as a gzipped tar; `close` closes the database;
 * - `fence` stops every later call from reaching the database (the lease is another's).
 * Given a lease, the worker checks it before every statement and commit and answers
 * `{ code: 'LEASE_LOST' }` once it is another's (the write fence, pglite-worker.mjs).
 */
type Message =
  | { op: 'query'; sql: string; params?: readonly SqlValue[]; tx?: number }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin'; tx: number }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'dump'; compression: DumpCompression }
  | { op: 'fence' }
  | { op: 'close' };

/** A tarball gzipped, or as it is (larger, but made and loaded again in less time). */
export type DumpCompression = 'gzip' | 'none';

type Answer = { id: number; value?: unknown; error?: Record<string, unknown> };

export interface PgliteDb extends Db {
  /**
   * The whole data directory, gzipped unless told otherwise, for a snapshot another PGlite
   * loads (tests).
   */
  dumpDataDir(compression?: DumpCompression): Promise<ArrayBuffer>;
  /** From now on nothing reaches the database: another process holds its folder. */
  fence(): Promise<void>;
}

/** The data folder's lease, which the worker checks before each write (data-dir-lock.ts). */
export interface WriteFence {
  file: string;
  instance: string;
  /** The lease file is read at most once in this many ms of both clocks. */
  checkMs: number;
  /** Called once, when a call was refused because the lease is another's. */
  onLost: () => void;
}

/** An error from the worker, thrown here with its database fields (code, constraint…). */
function rebuilt(fields: Record<string, unknown>): Error {
  const { message, ...rest } = fields;
  return Object.assign(new Error(String(message)), rest);
}

/**
 * Calls to the worker and their answers. The worker's first answer (id 0) says whether the
 * database opened: `opened` settles with it.
 */
function workerChannel(worker: Worker, onLeaseLost?: () => void) {
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const opened = new Promise<unknown>((resolve, reject) => waiting.set(0, { resolve, reject }));
  let next = 1;
  let lost: Error | undefined;
  worker.on('message', ({ id, value, error }: Answer) => {
    const call = waiting.get(id);
    if (!call) return;
    waiting.delete(id);
    // While nothing waits on the database it must not keep the process alive on its own.
    if (waiting.size === 0) worker.unref();
    if (error?.code === LEASE_LOST) onLeaseLost?.();
    if (error) call.reject(rebuilt(error));
    else call.resolve(value);
  });
  const fail = (error: Error) => {
    lost ??= error;
    for (const call of waiting.values()) call.reject(error);
    waiting.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`The embedded database stopped (exit ${code})`)));
  return {
    opened,
    /** Calls sent and not answered yet: the one running and those queued behind it. */
    pending: () => waiting.size,
    call<T>(message: Message): Promise<T> {
      if (lost) return Promise.reject(lost);
      const id = next++;
      worker.ref();
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        worker.postMessage({ ...message, id });
      });
    },
  };
}

type Channel = ReturnType<typeof workerChannel>;

/** Counts statements once they end (see Db.changeCount). */
function queryable(channel: Channel, counter: ChangeCounter, tx?: number): Queryable {
  return {
    async exec(sql: string) {
      await counter.after(null, () => channel.call({ op: 'exec', sql, tx }));
    },
    query<T>(sql: string, params?: readonly SqlValue[]) {
      return counter.after(sql, () => channel.call<T[]>({ op: 'query', sql, params, tx }));
    },
  };
}

function workerDb(worker: Worker, channel: Channel): PgliteDb {
  const counter = changeCounter();
  let transactions = 0;
  return {
    kind: 'pglite',
    ...queryable(channel, counter),
    transaction: (fn) =>
      counter.after(null, async () => {
        const tx = ++transactions;
        await channel.call({ op: 'begin', tx });
        let result;
        try {
          result = await fn(queryable(channel, counter, tx));
        } catch (error) {
          // The caller's error is the one that matters; a rollback that fails lost the worker.
          await channel.call({ op: 'end', tx, commit: false }).catch(() => undefined);
          throw error;
        }
        await channel.call({ op: 'end', tx, commit: true });
        return result;
      }),
    dumpDataDir: (compression = 'gzip') => channel.call<ArrayBuffer>({ op: 'dump', compression }),
    fence: () => channel.call({ op: 'fence' }),
    close: async () => {
      try {
        await channel.call({ op: 'close' });
      } finally {
        await worker.terminate();
      }
    },
    changeCount: counter.count,
    load: () => ({ queued: channel.pending() }),
  };
}

/**
 * Opens PGlite in a worker thread: on `dataDir`, in memory, or in memory from a snapshot
 * (`loadDataDir`, from dumpDataDir).
 */
export async function openPglite(options: {
  dataDir?: string;
  loadDataDir?: ArrayBuffer;
  fence?: WriteFence;
  /** Loads PGlite's amcheck extension too (tests: a restored copy checked in place). */
  amcheck?: boolean;
}): Promise<PgliteDb> {
  const { fence, ...data } = options;
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: {
      ...data,
      compileCache: module.getCompileCacheDir(),
      ...(fence
        ? { lease: { file: fence.file, instance: fence.instance, checkMs: fence.checkMs } }
        : {}),
    },
    // Its own allocations are statements and rows in passing: a smaller young generation than
    // the main thread's keeps the two heaps' peak down (a 10,000-row import: 435 → 405 MiB).
    resourceLimits: { maxYoungGenerationSizeMb: 16 },
    transferList: options.loadDataDir ? [options.loadDataDir] : [],
  });
  let lost = false;
  const channel = workerChannel(worker, () => {
    if (lost) return;
    lost = true;
    fence?.onLost();
  });
  try {
    await channel.opened;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  return workerDb(worker, channel);
}
