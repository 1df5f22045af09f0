import {
  MICROBIAL_KIND_LABELS,
  type TMicrobialJudgement,
  type TMicrobialKind,
} from '../schemas/verification.schemas.ts';
import { shown } from './judge-result.ts';

/**
 * The microbial side of a run's verdict and release flag (core/verification/README.md,
 * "Microbial results"): a counted Fail blocks release and fails the run, naming where; an Alert
 * does not block and is listed among the reasons; a microbial sample the protocol plans without
 * a counted, non-failing result is pending.
 */

export const FINAL_RINSE = 'Final rinse';
/** How a microbial sample or result is named: its location (or the final rinse) and its test. */
export const microbialLabel = (locationName: string, kind: TMicrobialKind) =>
  `${locationName} (${MICROBIAL_KIND_LABELS[kind]})`;

export interface MicrobialRunState {
  /** What the protocol plans, by key (location id or 'rinse', and kind) with its label. */
  planned: readonly { key: string; label: string }[];
  results: readonly {
    key: string;
    label: string;
    judgement: TMicrobialJudgement['judgement'];
    percentOfLimit: number | null;
    superseded: boolean;
  }[];
}

/** The key a planned sample and a result share: where (a location or the final rinse) and what. */
export const microbialKey = (samplingLocationId: number | null, kind: string) =>
  `${samplingLocationId ?? 'rinse'}:${kind}`;

export function microbialTally(state: MicrobialRunState | undefined) {
  if (!state) return { failed: [], alerts: [], pending: [] };
  const counted = state.results.filter((r) => !r.superseded);
  const failed = [...new Set(counted.filter((r) => r.judgement === 'Fail').map((r) => r.label))];
  const alerts = counted
    .filter((r) => r.judgement === 'Alert')
    .map(
      (r) =>
        `Microbial alert level reached at ${r.label}${r.percentOfLimit === null ? '' : ` (${shown(r.percentOfLimit)} % of limit)`}`,
    );
  const pending = state.planned
    .filter((p) => !counted.some((r) => r.key === p.key))
    .map((p) => p.label);
  return { failed, alerts, pending };
}

export const microbialFailure = (labels: readonly string[]) =>
  `A microbial result failed at ${labels.join(', ')}`;
