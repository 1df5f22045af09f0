import type { Queryable } from '#server/db/db.ts';
import type { StudyOfRun } from './run-plan.ts';
import type { RunRow } from './runs.read.ts';

/*
 * Reads already made in one write of a run's children, kept for the rest of that write (issue
 * 34): the study as the entry read it, and the run as its recompute judged it, so that the
 * recompute and the run answered back do not read them again. Kept only inside `withRunReads`,
 * whose caller knows that nothing in between changes what is kept (results entry: the study's
 * protocol and snapshot do not change while results are entered, and nothing writes the run
 * or its children after its recompute). Any other transaction reads as before.
 */

export interface JudgedRun<J> {
  run: RunRow;
  judged: J;
}

interface RunReads {
  studies: Map<number, StudyOfRun>;
  judged: Map<number, JudgedRun<unknown>>;
}

const kept = new WeakMap<Queryable, RunReads>();

/** Runs `fn` with the reads of `tx` kept for its length. */
export async function withRunReads<T>(tx: Queryable, fn: () => Promise<T>): Promise<T> {
  kept.set(tx, { studies: new Map(), judged: new Map() });
  try {
    return await fn();
  } finally {
    kept.delete(tx);
  }
}

export const runReadsOf = (q: Queryable): RunReads | undefined => kept.get(q);
