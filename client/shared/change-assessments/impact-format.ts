import type {
  TChangeStatus,
  TDecision,
  TImpactItem,
  TImpactSummary,
} from '#core/schemas/change-assessments.schemas.ts';
import { criterionName } from '#core/labels/enum-labels.ts';
import { unitLabel } from '#core/units/format-number.ts';
import { formatLimit } from '../limits/what-if-format.ts';

export const CHANGE_STATUS_COLOURS: Record<TChangeStatus, string> = {
  'Not Evaluated': 'default',
  'Pending Approval': 'processing',
  Approved: 'success',
  Cancelled: 'error',
};

type Limits = NonNullable<TImpactItem['before']>;
const LIMIT_NAMES = [
  ['maco', 'MACO'],
  ['sal', 'SAL'],
  ['swab', 'Swab'],
  ['rinse', 'Rinse'],
] as const;

/**
 * The limits of an item as a reviewer reads them: 'MACO 12 mg → 9.6 mg', one line per limit
 * that either side has; a side that does not exist (a new or removed pair) shows as '–'.
 */
export function limitLines(item: Pick<TImpactItem, 'before' | 'after' | 'units'>): string[] {
  const lines: string[] = [];
  for (const [key, name] of LIMIT_NAMES) {
    const before = item.before?.[key] ?? null;
    const after = item.after?.[key] ?? null;
    if (before === null && after === null) continue;
    const unit = item.units[key];
    const side = (value: number | null) =>
      value === null ? '–' : `${formatLimit(value)} ${unitLabel(unit)}`.trim();
    lines.push(
      before === after ? `${name} ${side(after)}` : `${name} ${side(before)} → ${side(after)}`,
    );
  }
  const criterion = criterionLine(item.before, item.after);
  return criterion ? [...lines, criterion] : lines;
}

function criterionLine(before: Limits | null, after: Limits | null): string | null {
  const from = before?.criterion ? criterionName(before.criterion) : null;
  const to = after?.criterion ? criterionName(after.criterion) : null;
  if (from === null && to === null) return null;
  return from === to ? `Criterion ${to}` : `Criterion ${from ?? '–'} → ${to ?? '–'}`;
}

/** The counts of the evaluation, in the order a reviewer reads them. */
export function summaryCounts(summary: TImpactSummary): { label: string; value: number }[] {
  return [
    { label: 'Pairs before', value: summary.pairsBefore },
    { label: 'Pairs after', value: summary.pairsAfter },
    { label: 'Pairs moved', value: summary.pairsMoved },
    { label: 'Pairs tightened', value: summary.pairsTightened },
    { label: 'Pairs added', value: summary.pairsAdded },
    { label: 'Pairs removed', value: summary.pairsRemoved },
    { label: 'Criterion changes', value: summary.criterionChanged },
    { label: 'Limit kept, criterion moved', value: summary.criteriaMoved ?? 0 },
    { label: 'Worst-case changes', value: summary.worstCasesChanged },
    { label: 'Below LOQ', value: summary.belowLoq },
    { label: 'Results at risk', value: summary.resultsAtRisk },
  ];
}

/** True when the evaluation moves, adds or removes no pair and switches no criterion. */
export function nothingMoved(summary: TImpactSummary): boolean {
  return (
    summary.pairsMoved + summary.pairsAdded + summary.pairsRemoved + summary.criterionChanged === 0
  );
}

/** The pair list keeps the largest moves only: says so when some are counted but not listed. */
export function pairsListedNote(summary: TImpactSummary): string | null {
  const affected = summary.pairsMoved + summary.pairsAdded + summary.pairsRemoved;
  return summary.pairsListed < affected
    ? `The ${summary.pairsListed.toLocaleString('en-US')} largest of ${affected.toLocaleString('en-US')} pair changes are listed.`
    : null;
}

/** One decision with its justification, for every chosen item (POST …/decisions). */
export function decisionsFor(
  keys: readonly string[],
  decision: TDecision,
  justification: string,
): { key: string; decision: TDecision; justification: string }[] {
  const text = justification.trim();
  return [...new Set(keys)].map((key) => ({ key, decision, justification: text }));
}

/** What stops a submit, as the server will say it, so the screen can say it first. */
export function submitBlocker(
  evaluation: { current: boolean; undecided: number } | null,
): string | null {
  if (!evaluation) return 'Evaluate the change before submitting it.';
  if (!evaluation.current)
    return "The facility's data changed since this evaluation — evaluate again.";
  if (evaluation.undecided > 0)
    return `${evaluation.undecided} impact ${evaluation.undecided === 1 ? 'item has' : 'items have'} no decision.`;
  return null;
}
