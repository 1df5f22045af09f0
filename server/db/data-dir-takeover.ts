import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import {
  createWith,
  leaseText,
  readLease,
  type LeaseOwner,
  type SeenLease,
} from './data-dir-lease.ts';

/**
 * How the lease changes holder. POSIX has no compare-and-swap on a name: a rename onto
 * `carryover.lock` replaces whatever is there. A taker that checked "still the stale lease" and
 * was then frozen (SIGSTOP, a paused VM) past the stale time would, on waking, write over the
 * lease of a process that took over meanwhile, and two processes would write one PGlite folder
 * (EU GMP Annex 11 §7.1). So a change of holder is a chain of claims, each one exclusive and
 * each one fenced:
 *
 * 1. The taker writes its lease to a file of this attempt's own, `carryover.lock.pending-<attempt>`.
 * 2. It claims the succession of the lease it found: `carryover.lock.takeover-<lease id>`,
 *    created by link, which exactly one process can do. If another holds that claim and it is
 *    fresh, it backs off; if stale (its claimant died or is frozen), it claims the succession of
 *    that claimant's attempt, `takeover-<attempt>`, and so on down the chain.
 * 3. It removes the pending file of every claimant before it in the chain (the fence).
 * 4. It checks that the lease is still the one it found, and still stale.
 * 5. It renames its pending file onto the lease: the only step that writes the lease, and one
 *    that fails once a successor fenced it in step 3, however long it was frozen before it.
 *
 * So of all claimants only the last of the chain can still write the lease, and it writes only
 * what it found unchanged. Two takers of one stale lease: one claim wins and the other backs off;
 * or the first froze, the second succeeds and fences it, and the first fails on waking. Three:
 * the third fences both. A release goes through the same chain, so no taker replaces a lease
 * while its holder removes it.
 */

/** Where a change of holder can be held: tests stop a process there, as a freeze would. */
export type TakeoverStep = 'claiming' | 'claimed' | 'fenced' | 'checked';

type Steps<T> = Generator<TakeoverStep, T, void>;

/** Claims walked before giving up: each link is a claimant that died or froze mid-change. */
const MAX_CHAIN = 8;

export function pendingFor(path: string, attempt: string): string {
  return `${path}.pending-${attempt}`;
}

/** The claim to succeed the lease, or the claim, `id`. */
export function claimFor(path: string, id: string): string {
  return `${path}.takeover-${id}`;
}

/**
 * How a change of holder ended: this process changed the lease ('took'); the lease it started
 * from is no longer in the file, for good ('gone'); or it left the lease as it was ('kept': it
 * was refreshed, or a successor fenced this process and carries the change on).
 */
type Outcome = 'took' | 'gone' | 'kept';

/**
 * Steps 1 to 3, then `act` with this process's pending file. Answers 'busy' when a fresh claim
 * of another process is in the way (it is changing the holder right now), else what `act`
 * answered. Whatever happens, this process's own pending file is gone at the end, so it can no
 * longer write the lease.
 */
function* claimed(
  path: string,
  rootId: string,
  self: LeaseOwner,
  isStale: (seen: SeenLease) => boolean,
  act: (pending: string) => Steps<Outcome>,
): Steps<Outcome | 'busy'> {
  // Claims name the attempt, not the process: fencing one attempt leaves its later ones alone.
  const attempt = randomUUID();
  const claim = leaseText({ ...self, instance: attempt });
  const pending = pendingFor(path, attempt);
  writeFileSync(pending, leaseText(self));
  const before: string[] = [];
  const walked = [claimFor(path, rootId)];
  let outcome: Outcome | 'busy' = 'busy';
  try {
    for (let vanished = 0; ;) {
      yield 'claiming';
      if (createWith(walked.at(-1)!, claim)) break;
      const other = readLease(walked.at(-1)!);
      // Its chain ended between our two looks: try the same claim again.
      if (other === 'none') {
        if ((vanished += 1) > 10) return outcome;
        continue;
      }
      if (!isStale(other) || before.length >= MAX_CHAIN) return outcome;
      before.push(other.id);
      walked.push(claimFor(path, other.id));
    }
    outcome = 'kept';
    yield 'claimed';
    for (const id of before) rmSync(pendingFor(path, id), { force: true });
    yield 'fenced';
    outcome = yield* act(pending);
    return outcome;
  } finally {
    rmSync(pending, { force: true });
    // A claim is let go only once its chain is over: its lease is no longer in the file, so a
    // claim made afterwards finds nothing to change. Removed earlier, a claim a successor built
    // on would let a newcomer start a second chain beside it, and both could write the lease.
    if (outcome === 'took' || outcome === 'gone')
      for (const slot of walked) rmSync(slot, { force: true });
  }
}

/** Renames `from` to `to`; false when `from` is no longer there. */
function moved(from: string, to: string): boolean {
  try {
    renameSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Runs a change of holder to its end, telling `onStep` where it is. */
export function runSteps<T>(steps: Steps<T>, onStep?: (step: TakeoverStep) => void): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    onStep?.(next.value);
  }
}

/**
 * Replaces the stale lease `seen` with one of `self`; false when it is no longer that lease,
 * it was refreshed meanwhile, or another process is taking it over.
 */
export function* takeOverSteps(
  path: string,
  seen: SeenLease,
  self: LeaseOwner,
  isStale: (seen: SeenLease) => boolean,
): Steps<boolean> {
  const outcome = yield* claimed(path, seen.id, self, isStale, function* (pending) {
    const now = readLease(path);
    if (now === 'none' || now.id !== seen.id) return 'gone';
    if (!isStale(now)) return 'kept';
    yield 'checked';
    // Fails when a successor fenced this process while it was held between the check and here.
    return moved(pending, path) ? 'took' : 'kept';
  });
  return outcome === 'took';
}

/**
 * Removes the lease of `self`; false while another process holds a fresh claim on it (the caller
 * tries again), true once it is gone or no longer this process's.
 */
export function* releaseSteps(
  path: string,
  self: LeaseOwner,
  isStale: (seen: SeenLease) => boolean,
): Steps<boolean> {
  const outcome = yield* claimed(path, self.instance, self, isStale, function* (pending) {
    const now = readLease(path);
    if (now === 'none' || now.id !== self.instance) return 'gone';
    // A successor fenced this process (it was held past the stale time): the lease is its now.
    if (!existsSync(pending)) return 'kept';
    yield 'checked';
    // Moved aside rather than deleted, so that what was moved can be looked at.
    const aside = `${path}.released-${randomUUID()}`;
    if (!moved(path, aside)) return 'gone';
    const was = readLease(aside);
    const mine = was !== 'none' && was.id === self.instance;
    // Held past the stale time since the check, and a successor's lease was moved: put it
    // back, unless a new holder was created meanwhile.
    if (!mine) createWith(path, readFileSync(aside, 'utf8'));
    rmSync(aside, { force: true });
    return mine ? 'took' : 'gone';
  });
  return outcome !== 'busy';
}
