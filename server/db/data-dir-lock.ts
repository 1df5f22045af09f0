import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { appVersion } from '../util/app-version.ts';

/** Another live process holds the embedded database this one was asked to open. */
export class DatabaseInUseError extends Error {}

export const LOCK_FILE = 'carryover.lock';
/** Held only while a starter takes over a stale lease or the holder refreshes it. */
const GUARD_FILE = 'carryover.lock.guard';
export const DEFAULT_STALE_MS = 30_000;
/** The leases this process holds (a second open of the same folder here is refused too). */
const heldHere = new Set<string>();

/** Who holds the lease, and when it last said it still runs. */
export interface LeaseOwner {
  host: string;
  pid: number;
  instance: string;
  build: string;
  heartbeatAt: string;
}

export interface LockOptions {
  /** A lease whose heartbeat is older than this is taken over (default 30 s). */
  staleMs?: number;
  /** Called once when the lease turns out to be held by another: stop writing at once. */
  onLost?: (holder: LeaseOwner | null) => void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The lock file's text. Its first line is the pid alone, as the earlier pid lock wrote it: a
 * build from before the lease reads that line and refuses while this process runs.
 */
function leaseText(owner: LeaseOwner): string {
  return `${owner.pid}\n${JSON.stringify(owner)}\n`;
}

/** The holder in a lock file; a bare pid (an earlier build's lock) counts as this host's. */
function readHolder(file: string): LeaseOwner | null | 'none' {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
  const [first = '', second] = text.split('\n');
  try {
    if (second) return JSON.parse(second) as LeaseOwner;
  } catch {
    // an unreadable lease: judged by its pid line below
  }
  const pid = Number.parseInt(first, 10);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { host: hostname(), pid, instance: 'pid-lock', build: 'earlier', heartbeatAt: '' };
}

/** Creates `file` with `text` in one step, or fails with EEXIST: readers never see it half written. */
function createWith(file: string, text: string, instance: string): boolean {
  const temp = `${file}.${instance}.tmp`;
  writeFileSync(temp, text);
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Replaces `file` with `text` in one step (rename). */
function replaceWith(file: string, text: string, instance: string): void {
  const temp = `${file}.${instance}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

/** Waits on this thread: the lock is taken before anything else of the start may run. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function ageMs(holder: LeaseOwner): number {
  const at = Date.parse(holder.heartbeatAt);
  return Number.isNaN(at) ? Number.POSITIVE_INFINITY : Date.now() - at;
}

/**
 * Whether `holder` may still run. On this host a dead pid settles it (a crash), and so does
 * this very pid with another instance id (the pid reused in a new container); elsewhere, and
 * for a live pid, only the heartbeat tells.
 */
function isFresh(holder: LeaseOwner, self: LeaseOwner, staleMs: number): boolean {
  if (holder.host === self.host) {
    if (holder.pid === self.pid) return heldHere.has(holder.instance);
    if (!isAlive(holder.pid)) return false;
    // An earlier build's pid lock has no heartbeat: its live process holds it.
    if (holder.instance === 'pid-lock') return true;
  }
  return ageMs(holder) <= staleMs;
}

function inUse(dataDir: string, file: string, holder: LeaseOwner): DatabaseInUseError {
  const age = ageMs(holder);
  const beat = Number.isFinite(age) ? `, heartbeat ${Math.round(age / 1000)} s ago` : '';
  return new DatabaseInUseError(
    `The embedded database in ${dataDir} is in use by another Carryover process (pid ${holder.pid}) ` +
      `on host ${holder.host} (build ${holder.build}, instance ${holder.instance}${beat}). ` +
      `Stop that server first, or use a PostgreSQL server (DATABASE_URL) that several processes can share. ` +
      `If no such process runs anywhere that shares this folder, delete ${file}.`,
  );
}

/**
 * Runs `fn` holding the guard file, which orders takeovers and refreshes: a stale lease is
 * replaced by one starter only, and never between a holder's check and its refresh. A guard
 * left by a process that died holding it (a moment's window) is cleared once stale.
 */
function withGuard<T>(dataDir: string, self: LeaseOwner, staleMs: number, fn: () => T): T | null {
  const guard = join(dataDir, GUARD_FILE);
  if (!createWith(guard, leaseText(self), self.instance)) {
    const other = readHolder(guard);
    if (other !== 'none' && (other === null || ageMs(other) > staleMs))
      rmSync(guard, { force: true });
    return null;
  }
  try {
    return fn();
  } finally {
    rmSync(guard, { force: true });
  }
}

/**
 * Embedded PostgreSQL is one process's database: a second process opening the same directory
 * (a second server, an older build during an upgrade, a container on another host sharing the
 * volume, `npm run seed:demo` beside a running one) would write over the first one's data and
 * can leave the folder unopenable. So the folder is held by a lease: a lock file naming its
 * holder (host, pid, instance, build) with a heartbeat the holder refreshes every few seconds.
 * Another starter refuses while the heartbeat is fresh and takes over only a stale lease; the
 * holder that finds its lease taken stops writing (`onLost`). EU GMP Annex 11 §7.1: data are
 * secured against damage, here against two writers on one folder.
 * Returns the release, which stops the heartbeat and removes the lock file if still ours.
 */
export function lockDataDir(dataDir: string, options: LockOptions = {}): () => void {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const file = join(dataDir, LOCK_FILE);
  const self: LeaseOwner = {
    host: hostname(),
    pid: process.pid,
    instance: randomUUID(),
    build: appVersion(),
    heartbeatAt: new Date().toISOString(),
  };
  const beat = () => leaseText({ ...self, heartbeatAt: new Date().toISOString() });
  for (let attempt = 0; ; attempt += 1) {
    if (createWith(file, beat(), self.instance)) break;
    const holder = readHolder(file);
    if (holder === 'none') continue;
    if (holder !== null && isFresh(holder, self, staleMs)) throw inUse(dataDir, file, holder);
    const seen = readHolderText(file);
    if (seen === null) continue;
    // Taken over only if it is still the very lease judged stale: another starter may have
    // taken it over in between, and its fresh lease is then refused on the next round.
    const took = withGuard(dataDir, self, staleMs, () => {
      if (readHolderText(file) !== seen) return false;
      replaceWith(file, beat(), self.instance);
      return true;
    });
    if (took) break;
    if (attempt >= 100) throw new DatabaseInUseError(`Could not take over the lock ${file}`);
    pause(20);
  }
  const ours = () => {
    const holder = readHolder(file);
    return holder !== 'none' && holder?.instance === self.instance;
  };
  heldHere.add(self.instance);
  let lost = false;
  let lastBeat = Date.now();
  const lose = (holder: LeaseOwner | null) => {
    lost = true;
    clearInterval(timer);
    heldHere.delete(self.instance);
    options.onLost?.(holder);
  };
  const refresh = () => {
    if (lost) return;
    try {
      withGuard(dataDir, self, staleMs, () => {
        if (!ours()) {
          const holder = readHolder(file);
          return lose(holder === 'none' ? null : holder);
        }
        replaceWith(file, beat(), self.instance);
        lastBeat = Date.now();
      });
    } catch {
      // The folder cannot be written (gone, full, unmounted): once the lease may have gone
      // stale for others, this process no longer holds it.
      if (Date.now() - lastBeat > staleMs / 2) lose(null);
    }
  };
  // Several beats within the stale time: a beat delayed by a busy machine does not lose it.
  const timer = setInterval(refresh, Math.max(100, Math.min(5_000, staleMs / 4)));
  timer.unref();
  return () => {
    clearInterval(timer);
    heldHere.delete(self.instance);
    if (lost) return;
    // Under the guard, so that a lease taken over in the meantime is never removed.
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const done = withGuard(dataDir, self, staleMs, () => {
        if (ours()) rmSync(file, { force: true });
        return true;
      });
      if (done) return;
      pause(20);
    }
  };
}

function readHolderText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
