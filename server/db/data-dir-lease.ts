import { randomUUID } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  linkSync,
  openSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';

/**
 * The lease file's primitives: who holds it, whether that holder may still run, and its creation
 * in one step (link). A change of holder is data-dir-takeover.ts. The heartbeat is the file's
 * mtime, which its holder touches while it runs.
 */

/** Who holds the lease: shown in the refusal, and compared to tell a crash from a live holder. */
export interface LeaseOwner {
  host: string;
  /** Host, boot and pid namespace: where a pid means the same process as here. */
  machine: string;
  pid: number;
  /** One per lease taken: a pid can be reused, an instance id never is. */
  instance: string;
  build: string;
  since: string;
}

/** A lease as read: its owner (null for an earlier build's bare pid file), age and identity. */
export interface SeenLease {
  owner: LeaseOwner | null;
  pid: number | null;
  /** Unique to this lease file: names its takeover token, and tells whether it was replaced. */
  id: string;
  heartbeatAgeMs: number;
}

function readOr(path: string, fallback: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return fallback;
  }
}

function pidNamespace(): string {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
}

/** This process's place: two containers on one host have different pid namespaces. */
export function thisMachine(): string {
  return [hostname(), readOr('/proc/sys/kernel/random/boot_id', ''), pidNamespace()].join('/');
}

export function newOwner(build: string, machine = thisMachine()): LeaseOwner {
  return {
    host: machine.split('/')[0] ?? hostname(),
    machine,
    pid: process.pid,
    instance: randomUUID(),
    build,
    since: new Date().toISOString(),
  };
}

/**
 * The lease file's text. Its first line is the pid alone, as the pid lock of earlier builds
 * wrote it: such a build (which reads `parseInt` of the file) refuses while this process runs.
 */
export function leaseText(owner: LeaseOwner): string {
  return `${owner.pid}\n${JSON.stringify(owner)}\n`;
}

/**
 * The lease at `path`, or 'none'. One that cannot be read (an earlier build between creating its
 * pid file and writing to it, or a damaged file) has neither owner nor pid: its age alone tells.
 */
export function readLease(path: string): SeenLease | 'none' {
  let text: string;
  let stat: ReturnType<typeof fstatSync>;
  // Its age and its text from one open file: a stat of the path then a read of it could take
  // the age of a stale lease and the text of the one just renamed over it, and judge the new
  // holder stale (six starters under load: a taker's claim on a live lease, left in place, kept
  // its holder from letting go; CI of 99f26e01).
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
  try {
    stat = fstatSync(fd);
    text = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  const [first = '', second] = text.split('\n');
  const pid = Number.parseInt(first, 10);
  const validPid = Number.isInteger(pid) && pid > 0 ? pid : null;
  const heartbeatAgeMs = Date.now() - stat.mtimeMs;
  let owner: LeaseOwner | null = null;
  try {
    if (second) owner = JSON.parse(second) as LeaseOwner;
  } catch {
    // half a lease: judged as unreadable below
  }
  if (owner?.instance) return { owner, pid: owner.pid, id: owner.instance, heartbeatAgeMs };
  // An earlier build's pid lock, or an unreadable file: its own inode and birth tell it apart.
  const id = `pid${validPid ?? 'none'}-${stat.ino}-${Math.round(stat.birthtimeMs)}`;
  return { owner: null, pid: validPid, id, heartbeatAgeMs };
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
 * Whether the holder of `seen` may still be writing. Where its pid means a process here, a dead
 * pid settles it at once (a crash). Otherwise (another host or container sharing the volume, a
 * frozen process) only the heartbeat tells: a lease not touched for `staleMs` is taken over.
 * An earlier build's pid lock names no host and keeps no heartbeat: its pid may be of a process
 * on another host or in another container sharing the folder, which a pid check here cannot
 * see, so it is never judged stale (the operator stops that server or deletes the file).
 */
export function holderMayRun(
  seen: SeenLease,
  self: LeaseOwner,
  staleMs: number,
  heldHere: ReadonlySet<string>,
): boolean {
  const { owner, pid } = seen;
  if (owner === null && pid === null) return seen.heartbeatAgeMs <= staleMs;
  if (owner === null) return true;
  if (owner.machine === self.machine) {
    if (owner.pid === self.pid) return heldHere.has(owner.instance);
    if (!isAlive(owner.pid)) return false;
  }
  return seen.heartbeatAgeMs <= staleMs;
}

let tempCount = 0;
function writeTemp(path: string, text: string): string {
  tempCount += 1;
  const temp = `${path}.${process.pid}-${tempCount}-${randomUUID().slice(0, 8)}.tmp`;
  writeFileSync(temp, text);
  return temp;
}

/** Creates `path` holding `text` in one step, or answers false if it exists (link is atomic). */
export function createWith(path: string, text: string): boolean {
  const temp = writeTemp(path, text);
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'EEXIST') return false;
    // A file system without hard links: exclusive create (O_EXCL), then the text; a reader in
    // between finds it unreadable and fresh, so held.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS')
      return createExclusive(path, text);
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

function createExclusive(path: string, text: string): boolean {
  try {
    writeFileSync(path, text, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
