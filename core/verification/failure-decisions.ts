/**
 * Which failures of a run have no recorded decision (core/verification/README.md, "Run"):
 * every counted failed result, failed microbial result and failed visual inspection needs a
 * deviation that says what it means before the run is submitted: a process failure confirmed
 * (the run fails; re-clean and repeat) or a laboratory error (non-process, investigated; it may
 * invalidate the run). 21 CFR 211.192: any unexplained discrepancy or failure of a batch to
 * meet its specifications is investigated and the conclusion recorded, whether or not the
 * batch was already distributed; FDA OOS guidance (2006, rev. 2022): every out-of-
 * specification result is investigated.
 */

export interface FailureDecisionState {
  /** Counted (not superseded) failed sample results. */
  failedResults: readonly { id: number; samplingLocationId: number; location: string }[];
  /** Counted failed microbial results; the final rinse has no location. */
  failedMicrobial: readonly { samplingLocationId: number | null; label: string }[];
  visualFailed: boolean;
  deviations: readonly {
    resultId: number | null;
    samplingLocationId: number | null;
    invalidatesRun: boolean;
  }[];
}

/**
 * The places whose failure no deviation decides, in the run's order: a failed result is decided
 * by a deviation naming it or its location, or one that invalidates the run (its results say
 * nothing); a failed final rinse, which has no location to name, and a failed visual inspection
 * by a deviation of the run as a whole (naming no result and no location).
 */
export function undecidedFailures(state: FailureDecisionState): {
  locations: string[];
  visual: boolean;
} {
  const { deviations } = state;
  const invalidated = deviations.some((d) => d.invalidatesRun);
  const wholeRun = deviations.some((d) => d.resultId === null && d.samplingLocationId === null);
  const namesPlace = (location: number | null) =>
    location !== null && deviations.some((d) => d.samplingLocationId === location);
  const locations = new Set<string>();
  for (const r of state.failedResults) {
    const decided =
      invalidated ||
      namesPlace(r.samplingLocationId) ||
      deviations.some((d) => d.resultId === r.id);
    if (!decided) locations.add(r.location);
  }
  for (const m of state.failedMicrobial) {
    const decided =
      invalidated || (m.samplingLocationId === null ? wholeRun : namesPlace(m.samplingLocationId));
    if (!decided) locations.add(m.label);
  }
  return { locations: [...locations], visual: state.visualFailed && !wholeRun };
}

/** The refusal of a Submit, naming each place; null when every failure is decided. */
export function undecidedMessage(undecided: { locations: string[]; visual: boolean }) {
  const parts: string[] = [];
  const { locations } = undecided;
  if (locations.length === 1)
    parts.push(`No decision on the failed result at ${locations[0]}: record a deviation for it`);
  else if (locations.length > 1)
    parts.push(
      `No decision on the failed results at ${locations.join(', ')}: record a deviation for each`,
    );
  if (undecided.visual)
    parts.push('No decision on the failed visual inspection: record a deviation of the run for it');
  return parts.length === 0 ? null : parts.join('; ');
}

/**
 * The refusal of a Submit while an investigation of one of the run's results is not concluded
 * (opened, or in signing): its outcome decides whether the result stands, so the run is not
 * submitted on a question still open (FDA OOS guidance 2006/2022, section III.C: the quality
 * unit reviews and approves the investigation's conclusion). Null when every one is concluded.
 */
export function unconcludedMessage(
  investigations: readonly { number: string; samplingLocationName: string; concluded: boolean }[],
): string | null {
  const open = investigations.filter((i) => !i.concluded);
  if (open.length === 0) return null;
  return open
    .map(
      (i) =>
        `Investigation ${i.number} of the result at ${i.samplingLocationName} is not concluded: QA approves it before the run is submitted`,
    )
    .join('; ');
}
