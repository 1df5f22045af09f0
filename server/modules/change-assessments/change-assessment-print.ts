import { nameKey, UNKNOWN_RECORD, type AuditFormat } from '#core/audit/audit-format.ts';
import {
  DECISION_LABELS,
  IMPACT_KIND_LABELS,
  type TImpactKind,
  type TDecision,
  type TImpactSummary,
} from '#core/schemas/change-assessments.schemas.ts';

interface Printed {
  label: string;
  text: string;
}

/** An impact item's key ('limitsMoved:B') as a reader names it: 'Limits moved: B'. */
function itemName(key: string): string {
  const colon = key.indexOf(':');
  const kind = key.slice(0, colon) as TImpactKind;
  return colon > 0 && kind in IMPACT_KIND_LABELS
    ? `${IMPACT_KIND_LABELS[kind]}: ${key.slice(colon + 1)}`
    : key;
}

const lines = (items: readonly string[]) => (items.length === 0 ? '—' : items.join('\n'));

/**
 * A change assessment as its signers read it on paper: the change set in the order it applies,
 * the evaluation's figures and every decision with its justification.
 */
export function printChangeAssessment(
  content: Record<string, unknown>,
  format: AuditFormat,
): Printed[] {
  const changes = (content.changes ?? []) as { label: string; reason: string }[];
  const evaluation = content.evaluation as { evaluatedAt: string; summary: TImpactSummary } | null;
  const decisions = (content.decisions ?? []) as {
    key: string;
    decision: TDecision;
    justification: string;
  }[];
  const s = evaluation?.summary;
  return [
    { label: 'Number', text: String(content.number ?? '—') },
    { label: 'Title', text: String(content.title ?? '—') },
    { label: 'Type of change', text: String(content.changeType ?? '—') },
    { label: 'Description', text: String(content.description || '—') },
    {
      label: 'Change-of-control record',
      text:
        typeof content.mocId === 'number'
          ? (format.names[nameKey('mocRecords', content.mocId)] ?? UNKNOWN_RECORD)
          : '—',
    },
    {
      label: 'Staged changes',
      text: lines(changes.map((c, i) => `${i + 1}. ${c.label} — ${c.reason}`)),
    },
    {
      label: 'Evaluation',
      text: s
        ? `${format.formatDateTime(evaluation.evaluatedAt)}: ${s.pairsMoved} of ${s.pairsBefore} pairs move ` +
          `(${s.pairsTightened} tighter), ${s.pairsAdded} added, ${s.pairsRemoved} removed, ` +
          `${s.criterionChanged} criterion changes, ${s.worstCasesChanged} worst-case changes, ` +
          `${s.belowLoq} below LOQ, ${s.resultsAtRisk} results at risk`
        : 'Not evaluated',
    },
    {
      label: 'Decisions',
      text: lines(
        decisions.map(
          (d) => `${itemName(d.key)}: ${DECISION_LABELS[d.decision]} — ${d.justification}`,
        ),
      ),
    },
  ];
}
