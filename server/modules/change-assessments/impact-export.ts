import type { DateTimeSettings } from '#core/datetime/format-date-time.ts';
import { DEFAULT_DATE_TIME_SETTINGS, formatDateTime } from '#core/datetime/format-date-time.ts';
import type {
  TChangeType,
  TImpactItem,
  TImpactKind,
  TImpactSummary,
} from '#core/schemas/change-assessments.schemas.ts';
import { DECISION_LABELS } from '#core/schemas/change-assessments.schemas.ts';

/** What the impact exports say about the assessment they come from. */
export interface ImpactExportMeta {
  facilityName: string;
  /** CA-0003 */
  number: string;
  title: string;
  changeType: TChangeType;
  evaluatedAt: Date | string;
  evaluatedByName: string;
  changes: { label: string; reason: string }[];
  /** The facility's date and time settings; default UTC. */
  settings?: DateTimeSettings;
}

export type ImpactUnitNames = TImpactItem['units'];

export const KIND_LABELS: Record<TImpactKind, string> = {
  limitsMoved: 'Limits moved',
  criterionChanged: 'Governing criterion changed',
  pairsAdded: 'Pairs added',
  pairsRemoved: 'Pairs removed',
  worstCaseChanged: 'Worst case changed',
  belowLoq: 'Below the LOQ',
  resultAtRisk: 'Result at risk',
};

/** The summary's counts as label and number, in the order the exports show them. */
export function summaryRows(summary: TImpactSummary): [string, number][] {
  return [
    ['Pairs before', summary.pairsBefore],
    ['Pairs after', summary.pairsAfter],
    ['Pairs whose limits move', summary.pairsMoved],
    ['of which tighter', summary.pairsTightened],
    ['Pairs added', summary.pairsAdded],
    ['Pairs removed', summary.pairsRemoved],
    ['Previous products whose governing criterion changes', summary.criterionChanged],
    ['Pairs whose limit stays while another criterion moves', summary.criteriaMoved ?? 0],
    ['Trains whose worst case changes', summary.worstCasesChanged],
    ['Limits newly below a method LOQ', summary.belowLoq],
    ['Results at risk', summary.resultsAtRisk],
    ['Pairs listed', summary.pairsListed],
  ];
}

/** The evaluation's heading facts as label and text. */
export function metaRows(
  meta: ImpactExportMeta,
  items: readonly TImpactItem[],
): [string, string][] {
  const settings = meta.settings ?? DEFAULT_DATE_TIME_SETTINGS;
  const undecided = items.filter((item) => item.decision === null).length;
  return [
    ['Facility', meta.facilityName],
    ['Change assessment', `${meta.number}: ${meta.title}`],
    ['Change type', meta.changeType],
    [
      'Evaluated',
      `${formatDateTime(meta.evaluatedAt, settings)} (${settings.timezone}) by ${meta.evaluatedByName}`,
    ],
    ['Impact items', `${items.length} (${undecided} without a decision)`],
  ];
}

/** The units of an evaluation: every item carries the same; the engine's own when none. */
export function unitsOf(items: readonly TImpactItem[]): ImpactUnitNames {
  return items[0]?.units ?? { maco: 'mg', sal: 'mg/sqcm', swab: 'mg/swab', rinse: 'mg/ml' };
}

export function decisionLabel(item: TImpactItem): string {
  return item.decision ? DECISION_LABELS[item.decision.decision] : 'No decision yet';
}

/** 'By Jane Doe, 22 Nov, 2026 14:05' */
export function decidedText(item: TImpactItem, settings?: DateTimeSettings): string {
  if (!item.decision) return '';
  const at = formatDateTime(item.decision.decidedAt, settings ?? DEFAULT_DATE_TIME_SETTINGS);
  return `${item.decision.decidedByName}, ${at}`;
}
