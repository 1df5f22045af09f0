import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rng } from '#bench/limits-input.ts';
import { starter, writeLease, type Starter } from '../test/lease-starter.ts';
import { fileCleanup } from '../test/temp-dirs.ts';
import { LOCK_FILE } from './data-dir-lock.ts';
import {
  leaseText,
  newOwner,
  readLease,
  type LeaseOwner,
  type SeenLease,
} from './data-dir-lease.ts';
import { releaseSteps, takeOverSteps, type TakeoverStep } from './data-dir-takeover.ts';

const { later, tempDir } = fileCleanup('takeover');

interface Contender {
  owner: LeaseOwner;
  steps: Generator<TakeoverStep, boolean, void>;
  releasing: boolean;
  finished: boolean;
  won: boolean;
}

/**
 * One schedule: `count` processes that all judged the same stale lease, each stepped by the real
 * takeover on real files, in an order drawn from `seed`. At any step one may freeze (it is not
 * stepped, and the others see its claim as stale, as they would once the stale time passed) and
 * later wake; a winner may then release. Checks after every step that the lease only ever
 * changed from the stale one to one winner (and from it to none by its release), and at the end
 * that exactly one won and nothing was left behind.
 */
function schedule(seed: number, count: number): void {
  const next = rng(seed);
  const dir = tempDir();
  const path = join(dir, LOCK_FILE);
  const stale = newOwner('0.9.0', 'other-host/boot/ns');
  writeFileSync(path, leaseText(stale));
  const seen = readLease(path) as SeenLease;

  const frozen = new Set<string>();
  const everFrozen = new Set<string>();
  const won = new Set<string>();
  // As the stale time would make it: the first lease, a process frozen now, and the claims of
  // one frozen before it finished (a claim is never refreshed).
  // Claims name their attempt; each process here has a pid of its own that tells whose it is.
  const byPid = new Map<number | null, string>();
  const isStale = (lease: SeenLease) => {
    if (lease.id === seen.id) return true;
    const who = byPid.get(lease.pid) ?? '';
    return frozen.has(who) || (everFrozen.has(who) && !won.has(who));
  };

  const contenders: Contender[] = Array.from({ length: count }, (_, i) => {
    const owner = { ...newOwner('1.0.0', 'this-host/boot/ns'), pid: 100_000 + i };
    byPid.set(owner.pid, owner.instance);
    return {
      owner,
      steps: takeOverSteps(path, seen, owner, isStale),
      releasing: false,
      finished: false,
      won: false,
    };
  });
  const history: string[] = [seen.id];
  const current = () => {
    const lease = readLease(path);
    return lease === 'none' ? 'none' : lease.id;
  };
  const trace: string[] = [];

  for (let tick = 0; tick < 10_000; tick += 1) {
    const running = contenders.filter((c) => !c.finished);
    if (running.length === 0) break;
    const awake = running.filter((c) => !frozen.has(c.owner.instance));
    const roll = next();
    if (awake.length > 0 && roll < 0.15) {
      const c = awake[Math.floor(next() * awake.length)]!;
      frozen.add(c.owner.instance);
      everFrozen.add(c.owner.instance);
      trace.push(`freeze ${contenders.indexOf(c)}`);
      continue;
    }
    if (awake.length === 0 || roll < 0.25) {
      const sleeping = running.filter((c) => frozen.has(c.owner.instance));
      if (sleeping.length > 0) {
        const c = sleeping[Math.floor(next() * sleeping.length)]!;
        frozen.delete(c.owner.instance);
        trace.push(`wake ${contenders.indexOf(c)}`);
      }
      continue;
    }
    const c = awake[Math.floor(next() * awake.length)]!;
    const step = c.steps.next();
    trace.push(`${contenders.indexOf(c)} ${step.done ? `-> ${step.value}` : step.value}`);
    if (step.done) {
      if (c.releasing) {
        // A release answers false only while a fresh claim is in its way: it tries again.
        if (!step.value) c.steps = releaseSteps(path, c.owner, isStale);
        else c.finished = true;
      } else if (step.value) {
        c.won = true;
        won.add(c.owner.instance);
        expect(current(), `seed ${seed}: ${trace.join(', ')}`).toBe(c.owner.instance);
        if (next() < 0.5) {
          c.releasing = true;
          c.steps = releaseSteps(path, c.owner, isStale);
        } else c.finished = true;
      } else c.finished = true;
    }
    const now = current();
    if (now !== history.at(-1)) history.push(now);
  }

  const winners = contenders.filter((c) => c.won);
  const why = `seed ${seed}: ${trace.join(', ')}`;
  expect(winners, why).toHaveLength(1);
  const winner = winners[0]!.owner.instance;
  // The lease went from the stale one to the winner's, and to none only by the winner's release.
  expect(history, why).toEqual(
    winners[0]!.releasing ? [seen.id, winner, 'none'] : [seen.id, winner],
  );
  // No pending lease, claim or temporary file is left behind.
  expect(readdirSync(dir), why).toEqual(winners[0]!.releasing ? [] : [LOCK_FILE]);
}

describe('taking over a stale lease, over interleavings of its steps', () => {
  it('lets exactly one of two, three or four takers replace it, however they freeze and wake', () => {
    const base = Number.parseInt(randomUUID().slice(0, 8), 16);
    for (let round = 0; round < 1_500; round += 1) schedule(base + round, 2 + (round % 3));
  }, 120_000);
});

const STALE_MS = 1_500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pidIn = (dir: string) => Number.parseInt(readFileSync(join(dir, LOCK_FILE), 'utf8'), 10);

/** A starter that takes over the stale lease of `dir` and is frozen (SIGSTOP) at `step`. */
async function frozenAt(dir: string, step: TakeoverStep, gate: string): Promise<Starter> {
  const taker = starter(later);
  expect(await taker.next()).toBe('ready');
  taker.tell(`go 0 ${dir} ${STALE_MS} ${step} ${gate}`);
  expect(await taker.next()).toBe('held');
  taker.child.kill('SIGSTOP');
  // Frozen past the stale time: to the others its claim is now stale.
  await sleep(STALE_MS + 700);
  return taker;
}

/**
 * Wakes the frozen takers: each finds the folder in use and fails. `holder` keeps its lease (it
 * has not lost it several heartbeats later), and its release leaves nothing of the takeovers.
 */
async function wakeToFind(dir: string, gate: string, frozen: Starter[], holder: Starter) {
  writeFileSync(gate, '');
  for (const woken of frozen) {
    woken.child.kill('SIGCONT');
    expect(await woken.next()).toBe('DatabaseInUseError');
  }
  await sleep(STALE_MS);
  expect(holder.unheard()).toEqual([]);
  expect(pidIn(dir)).toBe(holder.child.pid);
  holder.tell('release');
  expect(await holder.next()).toBe('released');
  expect(readdirSync(dir)).toEqual(['gate']);
}

describe('a taker frozen in the middle of its takeover', () => {
  for (const step of ['claiming', 'claimed', 'fenced', 'checked'] as const) {
    it(`leaves the lease of the one that took over meanwhile, when frozen at ${step}`, async () => {
      const dir = tempDir();
      const gate = join(dir, 'gate');
      // Another host's server stopped beating a minute ago.
      writeLease(dir, { instance: randomUUID() }, 60_000);
      const first = await frozenAt(dir, step, gate);

      const second = starter(later);
      expect(await second.next()).toBe('ready');
      second.tell(`go 0 ${dir} ${STALE_MS}`);
      expect(await second.next()).toBe('won');

      await wakeToFind(dir, gate, [first], second);
    }, 60_000);
  }

  it('of three takers two frozen at their last step: the third holds, and the two fail on waking', async () => {
    const dir = tempDir();
    const gate = join(dir, 'gate');
    writeLease(dir, { instance: randomUUID() }, 60_000);
    // The second succeeds the frozen first's claim, and is frozen itself before writing.
    const first = await frozenAt(dir, 'checked', gate);
    const second = await frozenAt(dir, 'checked', gate);

    const third = starter(later);
    expect(await third.next()).toBe('ready');
    third.tell(`go 0 ${dir} ${STALE_MS}`);
    expect(await third.next()).toBe('won');

    await wakeToFind(dir, gate, [second, first], third);
  }, 60_000);
});
