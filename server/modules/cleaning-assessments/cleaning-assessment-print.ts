import { nameKey, UNKNOWN_RECORD, type AuditFormat } from '#core/audit/audit-format.ts';
import {
  COVERAGE_LABELS,
  type TAssessmentResult,
} from '#core/schemas/cleaning-assessments.schemas.ts';

interface Printed {
  label: string;
  text: string;
}

const lines = (items: readonly string[]) => (items.length === 0 ? '—' : items.join('\n'));

/**
 * A cleaning assessment as its signers read it on paper: the counts, the worst case of every
 * train with its reason, every gap and what was left out, rather than the result's raw JSON.
 */
export function printCleaningAssessment(
  content: Record<string, unknown>,
  format: AuditFormat,
): Printed[] {
  const result = content.result as TAssessmentResult | null | undefined;
  const printed: Printed[] = [
    { label: 'Number', text: String(content.number ?? '—') },
    { label: 'Reason', text: String(content.reason ?? '—') },
  ];
  if (!result) return printed;
  const { counts, diff } = result;
  const gaps = result.coverage.filter((c) => c.state === 'notCovered' || c.state === 'tightened');
  printed.push(
    {
      label: 'Limits snapshot',
      text: result.limitsSnapshotId
        ? (format.names[nameKey('limitsSnapshots', result.limitsSnapshotId)] ?? UNKNOWN_RECORD)
        : '—',
    },
    { label: 'Engine input (SHA-256)', text: result.inputHash },
    {
      label: 'Coverage',
      text:
        `${counts.cells} product × train cells: ${counts.study} by a study, ` +
        `${counts.representative} by a representative, ${counts.tightened} tightened since, ` +
        `${counts.notCovered} not covered`,
    },
    { label: 'Highest risk score', text: counts.highestRiskScore?.toString() ?? '—' },
    {
      label: 'Worst case per train',
      text: lines(
        result.worstCases.map(
          (w) =>
            `${w.train}: ${w.product ?? '—'} (${w.reason})${w.override ? `. Override: ${w.override}` : ''}`,
        ),
      ),
    },
    {
      label: 'Worst-case overrides of equipment',
      text: lines(
        (result.overrides ?? [])
          .filter((o) => o.kind === 'equipment')
          .map((o) => `${o.target}: ${o.text}`),
      ),
    },
    {
      label: 'Gaps',
      text: lines(gaps.map((c) => `${c.product} on ${c.train}: ${COVERAGE_LABELS[c.state]}`)),
    },
    {
      label: 'Since the prior assessment',
      text:
        diff.priorId === null
          ? 'First assessment'
          : `${diff.newGaps.length} new gaps, ${diff.closedGaps.length} closed, ` +
            `${diff.worstCaseChanges.length} worst-case changes, ` +
            `${diff.changeAssessments.length} change assessments approved`,
    },
    { label: 'Left out', text: lines(result.uncomputable.map((u) => `${u.name}: ${u.reason}`)) },
  );
  return printed;
}
