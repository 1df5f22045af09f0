import type { Queryable } from '#server/db/db.ts';
import { keptReads } from '#server/db/kept-reads.ts';
import type { ControlledVersionState, KnownLatest } from '#server/records/controlled.ts';
import type { LocationFacts, MethodFacts, StudyOfRun } from './run-plan.ts';
import type { RunRow } from './runs.read.ts';

/*
 * Reads already made in one write of a run's children, kept for the rest of that write
 * (kept-reads.ts): the study as the entry read it, and the run as its recompute judged it, so
 * that the recompute and the run answered back do not read them again. Kept only inside
 * `keepingReads`, whose caller knows that nothing in between changes what is kept (results entry: the study's
 * protocol and snapshot do not change while results are entered, and nothing writes the run
 * or its children after its recompute; run creation: the study, read locked for the run's
 * number, is the one its recompute judges with, and nothing writes the new run after). Any
 * other transaction reads as before. The locations
 * and methods an entry read (null: asked for, not the facility's) serve the recompute's plan
 * and microbial locations too: an entry writes neither. The run's controlled state is the one
 * its working version was saved with, which the answer shows; a run its guard found being
 * built and its working version left being built was not completed and is not, so its study's
 * outcome (of completed runs only) stays as it was and is not recomputed. The run's latest
 * version, read locked by its guard, is the one its working version's save changes: nothing in
 * between writes it, and the lock keeps a signature from moving it.
 */

export interface JudgedRun<J> {
  run: RunRow;
  judged: J;
}

interface RunReads {
  studies: Map<number, StudyOfRun>;
  judged: Map<number, JudgedRun<unknown>>;
  locations: Map<number, LocationFacts | null>;
  methods: Map<number, MethodFacts | null>;
  /**
   * The latest version of a run as its guard read it locked, for the save of its working
   * version in the same write (taken once: that save changes it).
   */
  latest: Map<number, KnownLatest>;
  /** The controlled state of a run as the write's working version left it. */
  states: Map<number, ControlledVersionState>;
  /** The runs this write's guard found being built (or not yet saved): none was completed. */
  building: Set<number>;
}

/** The run reads kept in `q`'s write, if its reads are kept. */
export const runReadsOf = (q: Queryable): RunReads | undefined =>
  keptReads(q, 'runs', () => ({
    studies: new Map(),
    judged: new Map(),
    locations: new Map(),
    methods: new Map(),
    latest: new Map(),
    states: new Map(),
    building: new Set(),
  }));

/**
 * The facts of `ids` through the kept ones of `q`'s write: answered from them when all are
 * kept, else read (`read`) and kept, those not found as null.
 */
export async function keptFacts<T extends { id: number }>(
  q: Queryable,
  which: 'locations' | 'methods',
  ids: readonly number[],
  read: (ids: readonly number[]) => Promise<readonly T[]>,
): Promise<Map<number, T>> {
  const kept = runReadsOf(q)?.[which] as Map<number, T | null> | undefined;
  const rows =
    kept && ids.every((id) => kept.has(id))
      ? ids.flatMap((id) => (kept.get(id) ? [kept.get(id)!] : []))
      : await read(ids);
  if (kept) {
    for (const id of ids) if (!kept.has(id)) kept.set(id, null);
    for (const row of rows) kept.set(row.id, row);
  }
  return new Map(rows.map((r) => [r.id, r]));
}
