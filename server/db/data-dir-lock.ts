import { join } from 'node:path';
import { appVersion } from '../util/app-version.ts';
import { startHeartbeat } from './data-dir-heartbeat.ts';
import {
  createWith,
  holderMayRun,
  leaseText,
  newOwner,
  readLease,
  type LeaseOwner,
  type SeenLease,
} from './data-dir-lease.ts';
import { releaseSteps, runSteps, takeOverSteps, type TakeoverStep } from './data-dir-takeover.ts';

export type { LeaseOwner } from './data-dir-lease.ts';

/** Another live process holds the embedded database this one was asked to open. */
export class DatabaseInUseError extends Error {}

export const LOCK_FILE = 'carryover.lock';
export const DEFAULT_STALE_MS = 30_000;
/** The leases this process holds: a second open of the same folder here is refused too. */
const heldHere = new Set<string>();

export interface LockOptions {
  /** A lease whose heartbeat is older than this is taken over (default 30 s). */
  staleMs?: number;
  /** Called once if another process took the lease over: this one must stop writing at once. */
  onLost?: (holder: LeaseOwner | null) => void;
  /** Where this process runs (host, boot, pid namespace); tests stand in for another host. */
  machine?: string;
  /** Called between the steps of a takeover or release: tests hold a process there, as a freeze would. */
  onStep?: (step: TakeoverStep) => void;
}

/** Lets the lease go; names the lease file and this holder, for the write fence (pglite-db.ts). */
export type HeldLease = (() => void) & { readonly file: string; readonly instance: string };

/** Waits on this thread: the lock is taken before anything else of the start may run. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function inUse(dataDir: string, file: string, seen: SeenLease): DatabaseInUseError {
  const { owner } = seen;
  const who = owner
    ? `(pid ${owner.pid}) on host ${owner.host} since ${owner.since} ` +
      `(build ${owner.build}, heartbeat ${Math.max(0, Math.round(seen.heartbeatAgeMs / 1000))} s ago)`
    : seen.pid === null
      ? `(its lock cannot be read; written ${Math.round(seen.heartbeatAgeMs / 1000)} s ago)`
      : `(pid ${seen.pid}) of an earlier build, whose lock names no host and keeps no heartbeat: ` +
        `that pid may be of a server on another host or in another container sharing this folder`;
  return new DatabaseInUseError(
    `The embedded database in ${dataDir} is in use by another Carryover process ${who}. ` +
      `Stop that server first, or use a PostgreSQL server (DATABASE_URL) that several processes can share. ` +
      `If no such process runs anywhere that shares this folder, delete ${file}.`,
  );
}

function ownerIn(text: string | null): LeaseOwner | null {
  try {
    return text ? (JSON.parse(text.split('\n')[1] ?? '') as LeaseOwner) : null;
  } catch {
    return null;
  }
}

/**
 * Embedded PostgreSQL is one process's database: a second process opening the same folder (a
 * second server, an older build during an upgrade, a container on another host sharing the
 * volume, `npm run seed:demo` beside a running server) would write over the first one's data and
 * can leave the folder unopenable. EU GMP Annex 11 §7.1: data are secured against damage, here
 * against two writers on one folder.
 *
 * So the folder is held by a lease: the file `carryover.lock`, created in one step (link), naming
 * its holder (host, pid, instance, build, since), whose mtime the holder touches every few
 * seconds. Its first line is the bare pid that earlier builds' pid lock reads. A starter refuses
 * while the holder may run (holderMayRun) and takes over a stale lease only through a fenced
 * chain of claims on it (data-dir-takeover.ts), so of several starters exactly one replaces it,
 * even one that froze half way and woke after another had taken over.
 * The holder that finds its lease taken calls `onLost`. Returns the release.
 */
export function lockDataDir(dataDir: string, options: LockOptions = {}): HeldLease {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const file = join(dataDir, LOCK_FILE);
  const self = newOwner(appVersion(), options.machine);
  const isStale = (seen: SeenLease) => !holderMayRun(seen, self, staleMs, heldHere);
  for (let attempt = 0; ; attempt += 1) {
    if (createWith(file, leaseText(self))) break;
    const seen = readLease(file);
    if (seen === 'none') {
      if (attempt >= 100) throw new DatabaseInUseError(`${file} keeps appearing and vanishing`);
      continue;
    }
    // A fresh unreadable lock is most likely being written: look again before refusing.
    const mayRun = !isStale(seen);
    if (mayRun && (seen.pid !== null || attempt >= 10)) throw inUse(dataDir, file, seen);
    if (!mayRun && runSteps(takeOverSteps(file, seen, self, isStale), options.onStep)) {
      // Before the database is opened: the lease read back is this process's own.
      const now = readLease(file);
      if (now !== 'none' && now.id === self.instance) break;
    }
    if (attempt >= 100) throw inUse(dataDir, file, seen);
    pause(20);
  }
  heldHere.add(self.instance);
  let lost = false;
  const stopHeartbeat = startHeartbeat({
    file,
    instance: self.instance,
    staleMs,
    onLost: ({ lost: text }) => {
      lost = true;
      heldHere.delete(self.instance);
      options.onLost?.(ownerIn(text));
    },
  });
  const release = () => {
    stopHeartbeat();
    heldHere.delete(self.instance);
    if (lost) return;
    // Through the lease's claim, so that a lease another process took over is never removed.
    for (let attempt = 0; attempt < 100; attempt += 1) {
      if (runSteps(releaseSteps(file, self, isStale), options.onStep)) return;
      pause(20);
    }
  };
  return Object.assign(release, { file, instance: self.instance });
}
