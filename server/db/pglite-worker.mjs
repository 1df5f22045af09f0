// The embedded database in a thread of its own. PGlite is PostgreSQL compiled to WebAssembly and
// runs synchronously: on the main thread, opening it (most of a start) and every statement would
// stall HTTP. Plain JavaScript, so that a worker runs it as is from the sources (tests, tsx) and
// from dist/server. The main thread's side is pglite-db.ts, which documents the messages.
import { readFileSync } from 'node:fs';
import module from 'node:module';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

// A worker does not share its process's compile cache (scripts/start.mjs): given the folder, it
// keeps PGlite's compiled code there too, instead of compiling it again at every start. So the
// package is loaded once the cache is on.
if (workerData.compileCache) module.enableCompileCache(workerData.compileCache);
const { PGlite } = await import('@electric-sql/pglite');
const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
// amcheck only when the opener asks for it (a test checking a restored copy in place,
// server/test/amcheck.ts): the app never loads it.
const checkable = workerData.amcheck
  ? { amcheck: (await import('@electric-sql/pglite/contrib/amcheck')).amcheck }
  : {};

// PGlite's 128 MB of shared buffers are all written at start-up, so all of them stay resident.
// A site's working set fits in far fewer, and a page not in them is read through the operating
// system's file cache: with 16 MB a 10,000-row import peaked 30 MiB lower than with 32, and the
// 1,000-product matrix was read no slower.
const SHARED_BUFFERS = '16MB';

const opening = PGlite.create({
  // Same value types as the node-postgres driver: bigint and numeric as JS numbers.
  parsers: { 20: (v) => Number(v), 1700: (v) => Number(v) },
  startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
  // Trigram indexes of list searches (migration 20261218050200_search_trigrams.sql), as on a
  // PostgreSQL server, where pg_trgm ships with the server.
  extensions: { pg_trgm, ...checkable },
  ...(workerData.dataDir ? { dataDir: workerData.dataDir } : {}),
  ...(workerData.loadDataDir ? { loadDataDir: new Blob([workerData.loadDataDir]) } : {}),
});

/** Open transactions by the main thread's number: PGlite's handle and how to end it. */
const transactions = new Map();
const ROLLBACK = Symbol('rollback');

function begin(pg, id) {
  return new Promise((begun, failed) => {
    const ended = pg.transaction(
      (tx) =>
        new Promise((commit, rollback) => {
          transactions.set(id, { tx, commit, rollback: () => rollback(ROLLBACK), ended });
          begun();
        }),
    );
    ended.catch(failed);
  });
}

async function end(id, commit) {
  const open = transactions.get(id);
  if (!open) throw new Error(`No open transaction ${id}`);
  transactions.delete(id);
  if (commit) open.commit();
  else open.rollback();
  try {
    await open.ended;
  } catch (error) {
    if (error !== ROLLBACK) throw error;
  }
}

function target(pg, tx) {
  if (tx === undefined) return pg;
  const open = transactions.get(tx);
  if (!open) throw new Error(`No open transaction ${tx}`);
  return open.tx;
}

/**
 * The write fence (data-dir-lock.ts holds the lease; `workerData.lease` names its file and this
 * process's instance). A process frozen past the stale time (SIGSTOP, a paused VM) and woken after
 * another took the folder over would otherwise run statements until its heartbeat notices, up to
 * a quarter of the stale time: two writers on one folder (EU GMP Annex 11 §7.1). So before every
 * statement and commit this thread checks that the lease is still this process's, reading the
 * file at most once per `checkMs` of both clocks (a frozen process's wall clock and monotonic
 * clock both move on, so the first statement after any pause longer than that reads it). Once it
 * is another's, nothing reaches the database again: not a rollback, not a close (whose checkpoint
 * would write into the other's files).
 */
const lease = workerData.lease;
let fenced = false;
let checkedAt = { wall: -Infinity, mono: -Infinity };

class LeaseLost extends Error {
  code = 'LEASE_LOST';
  constructor() {
    super(
      'Another process now holds the data folder of this embedded database: nothing was saved.',
    );
  }
}

function assertLeaseHeld() {
  if (fenced) throw new LeaseLost();
  if (!lease) return;
  const wall = Date.now();
  const mono = performance.now();
  if (wall - checkedAt.wall < lease.checkMs && mono - checkedAt.mono < lease.checkMs) return;
  let text;
  try {
    text = readFileSync(lease.file, 'utf8');
  } catch (error) {
    // Gone: taken over and released, or removed. Another error (the disk): refuse this statement
    // and look again at the next; the heartbeat gives the lease up if it lasts.
    if (error.code === 'ENOENT') fenced = true;
    throw fenced ? new LeaseLost() : error;
  }
  if (!text.includes(lease.instance)) {
    fenced = true;
    throw new LeaseLost();
  }
  checkedAt = { wall, mono };
}

async function handle(pg, message) {
  if (message.op === 'fence') {
    fenced = true;
    return undefined;
  }
  if (message.op === 'close' && fenced) return undefined;
  if (message.op !== 'dump' && message.op !== 'close') assertLeaseHeld();
  switch (message.op) {
    case 'query':
      return (await target(pg, message.tx).query(message.sql, message.params)).rows;
    case 'exec':
      await target(pg, message.tx).exec(message.sql);
      return undefined;
    case 'begin':
      return begin(pg, message.tx);
    case 'end':
      return end(message.tx, message.commit);
    case 'dump':
      return (await pg.dumpDataDir(message.compression)).arrayBuffer();
    case 'close':
      return pg.close();
    default:
      throw new Error(`Unknown database message ${message.op}`);
  }
}

/** A database error's fields (code, constraint, detail…) survive the trip; a class does not. */
function plain(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  return { ...error, message: error.message, name: error.name };
}

opening.then(
  (pg) => {
    parentPort.on('message', (message) => {
      handle(pg, message).then(
        (value) =>
          parentPort.postMessage(
            { id: message.id, value },
            value instanceof ArrayBuffer ? [value] : [],
          ),
        (error) => parentPort.postMessage({ id: message.id, error: plain(error) }),
      );
    });
    parentPort.postMessage({ id: 0, value: 'open' });
  },
  (error) => parentPort.postMessage({ id: 0, error: plain(error) }),
);
