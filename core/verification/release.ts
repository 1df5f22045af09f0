import type { TReleaseFlag } from '../schemas/verification.schemas.ts';
import { microbialFailure, microbialTally, type MicrobialRunState } from './release-microbial.ts';

/**
 * A run's verdict and its equipment release flag (spec §4; rules in core/verification/README.md).
 * Superseded results are kept and shown but not counted: the retest or re-swab replaces them.
 */

export type RunVerdict = 'Pass' | 'Fail' | 'Invalidated' | 'Pending';

/**
 * The version of the rules below (and of what they read: judgements, investigations,
 * deviations). Raise it with any change that can move a run's verdict or flag: runs stored under
 * an older version are judged again at start, each change audited (server run-reconcile.ts).
 * 1: issue 26 (method fitness, investigations, deviation closure by QA).
 * 2: the sample results' stored judgements are judged again too (judgements written before
 *    method fitness still said methodNotFit false).
 */
export const RUN_RULES_VERSION = 2;

export interface RunResultState {
  samplingLocationId: number;
  /** null while no limit applies: neither passing nor failing. */
  passed: boolean | null;
  superseded: boolean;
  /**
   * The result's method cannot show its limit (judge-result.ts). Never a pass, whatever `passed`
   * says: judgements stored before issue 26 may say passed with the method not fit.
   */
  methodNotFit?: boolean;
}

export interface RunDeviationState {
  status: 'Open' | 'Closed';
  kind: 'process' | 'nonProcess';
  invalidatesRun: boolean;
}

export interface RunState {
  visualResult: 'Pass' | 'Fail' | null;
  plannedLocationIds: readonly number[];
  /** The planned locations' names, so that a reason names the place, never its id (issue 30). */
  locationNames?: Readonly<Record<number, string>>;
  results: readonly RunResultState[];
  deviations: readonly RunDeviationState[];
  dirtyHoldHours: number | null;
  cleanHoldHours: number | null;
  dirtyHoldMaxHours: number | null;
  cleanHoldMaxHours: number | null;
  allowReleaseAtRisk: boolean;
  /**
   * From the cleaning inspection settings the run pinned: whether the release waits for the
   * visual inspection (unset = it does), and the hold maxima used where the protocol has none.
   */
  visualRequired?: boolean;
  settingsDirtyHoldMaxHours?: number | null;
  settingsCleanHoldMaxHours?: number | null;
  /** Microbial results and the microbial samples the protocol plans (release-microbial.ts). */
  microbial?: MicrobialRunState;
}

export type HoldMaxSource = 'protocol' | 'inspection settings';
export interface HoldMax {
  hours: number;
  source: HoldMaxSource;
}

/** The protocol's hold maximum, else the pinned cleaning inspection settings' (null: none). */
export function holdMaxima(run: RunState): { dirty: HoldMax | null; clean: HoldMax | null } {
  const pick = (protocol: number | null, settings: number | null | undefined): HoldMax | null => {
    if (protocol !== null) return { hours: protocol, source: 'protocol' };
    if (settings !== null && settings !== undefined)
      return { hours: settings, source: 'inspection settings' };
    return null;
  };
  return {
    dirty: pick(run.dirtyHoldMaxHours, run.settingsDirtyHoldMaxHours),
    clean: pick(run.cleanHoldMaxHours, run.settingsCleanHoldMaxHours),
  };
}

export interface ReleaseDecision {
  flag: TReleaseFlag;
  reasons: string[];
}

interface Tally {
  failedLocations: number[];
  /** Locations with a counted result whose method cannot show the limit. */
  unfitLocations: number[];
  /** Planned locations without a counted, passing result. */
  pendingLocations: number[];
}

function tally(run: RunState): Tally {
  const counted = run.results.filter((r) => !r.superseded);
  const unfitLocations = [
    ...new Set(counted.filter((r) => r.methodNotFit === true).map((r) => r.samplingLocationId)),
  ];
  const failedLocations = [
    ...new Set(
      counted
        .filter((r) => r.passed === false && r.methodNotFit !== true)
        .map((r) => r.samplingLocationId),
    ),
  ];
  const notPassing = new Set([...failedLocations, ...unfitLocations]);
  // A location passes when it has a counted result and every counted result there passed with a
  // method able to show its limit.
  const pendingLocations = run.plannedLocationIds.filter((id) => {
    const here = counted.filter((r) => r.samplingLocationId === id);
    return here.length === 0 || here.some((r) => r.passed !== true || r.methodNotFit === true);
  });
  return {
    failedLocations,
    unfitLocations,
    pendingLocations: pendingLocations.filter((id) => !notPassing.has(id)),
  };
}

/**
 * A laboratory (non-process) deviation invalidates the run once QA approved its closure (21 CFR
 * 211.192; FDA OOS guidance: a result is invalidated only when the investigation is concluded
 * and approved). While it is open the results stand, counted and blocking as results do, and the
 * open deviation blocks the release.
 */
function invalidates(d: RunDeviationState): boolean {
  return d.kind === 'nonProcess' && d.invalidatesRun && d.status === 'Closed';
}

export function runVerdict(run: RunState): RunVerdict {
  if (run.deviations.some(invalidates)) return 'Invalidated';
  const { failedLocations, unfitLocations, pendingLocations } = tally(run);
  const microbial = microbialTally(run.microbial);
  // A result its method cannot see is no evidence that the cleaning worked: the run cannot pass.
  if (
    failedLocations.length > 0 ||
    unfitLocations.length > 0 ||
    microbial.failed.length > 0 ||
    run.visualResult === 'Fail'
  )
    return 'Fail';
  const visualDone = run.visualResult === 'Pass' || run.visualRequired === false;
  if (visualDone && pendingLocations.length === 0 && microbial.pending.length === 0) return 'Pass';
  return 'Pending';
}

function holdBreach(label: string, reached: number | null, max: HoldMax | null): string | null {
  if (reached === null || max === null || reached <= max.hours) return null;
  const of =
    max.source === 'protocol'
      ? "the protocol's maximum"
      : "the cleaning inspection settings' maximum (the protocol sets none)";
  return `${label} hold time ${reached} h exceeds ${of} of ${max.hours} h`;
}

function locations(ids: readonly number[], names: RunState['locationNames']): string {
  return ids.map((id) => names?.[id] ?? 'a location outside the plan').join(', ');
}

export function releaseFlag(run: RunState): ReleaseDecision {
  const { failedLocations, unfitLocations, pendingLocations } = tally(run);
  const planned = run.plannedLocationIds.length;
  const blocking: string[] = [];
  if (failedLocations.length > 0) {
    blocking.push(`A result failed at location ${locations(failedLocations, run.locationNames)}`);
  }
  if (unfitLocations.length > 0) {
    blocking.push(
      `The analytical method cannot show the limit at location ${locations(unfitLocations, run.locationNames)}: its LOQ, corrected for recovery, is above the limit or cannot be expressed in the limit's unit`,
    );
  }
  const microbial = microbialTally(run.microbial);
  if (microbial.failed.length > 0) blocking.push(microbialFailure(microbial.failed));
  if (run.visualResult === 'Fail') blocking.push('Visual inspection failed');
  const maxima = holdMaxima(run);
  const dirty = holdBreach('Dirty', run.dirtyHoldHours, maxima.dirty);
  const clean = holdBreach('Clean', run.cleanHoldHours, maxima.clean);
  if (dirty) blocking.push(dirty);
  if (clean) blocking.push(clean);
  const open = run.deviations.filter((d) => d.status === 'Open').length;
  if (open > 0) blocking.push(`${open} open deviation${open === 1 ? '' : 's'}`);
  // Its results prove nothing, so the equipment waits for the repeat run.
  if (run.deviations.some(invalidates)) {
    blocking.push('Invalidated by a laboratory deviation: a repeat run is needed');
  }
  // An alert does not block release; it is named among the reasons whatever the flag.
  const decide = (flag: TReleaseFlag, reasons: string[]): ReleaseDecision => ({
    flag,
    reasons: [...reasons, ...microbial.alerts],
  });
  if (blocking.length > 0) return decide('CAN_NOT_BE_RELEASED', blocking);

  const visualRequired = run.visualRequired !== false;
  if (run.visualResult === null && visualRequired) {
    return decide('CAN_NOT_BE_RELEASED', ['Visual inspection not recorded']);
  }
  const visual =
    run.visualResult === 'Pass'
      ? 'Visual inspection passed'
      : 'Visual inspection not required by the cleaning inspection settings';
  const microbialPending =
    microbial.pending.length > 0
      ? [`Microbial results pending for ${microbial.pending.join(', ')}`]
      : [];
  if (pendingLocations.length === 0 && microbialPending.length === 0) {
    return decide('CAN_BE_RELEASED', [visual, `All ${planned} planned locations passed`]);
  }
  const pending = [
    ...(pendingLocations.length > 0
      ? [
          `Results pending for ${pendingLocations.length} of ${planned} planned locations (${locations(pendingLocations, run.locationNames)})`,
        ]
      : []),
    ...microbialPending,
  ];
  if (run.allowReleaseAtRisk) {
    return decide('MAY_BE_RELEASED', [
      `${visual} and no result failed`,
      ...pending,
      'The protocol allows release at risk',
    ]);
  }
  return decide('CAN_NOT_BE_RELEASED', [...pending, 'The protocol does not allow release at risk']);
}
