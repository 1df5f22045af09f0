/*
 * The out-of-specification rule on repeats and corrections (core/verification/README.md,
 * "Out-of-specification results"), without the database: what the server's oos-rule.ts asks of
 * the facts it reads. FDA guidance "Investigating OOS Test Results" (2006, rev. 2022), sections
 * III-IV: an OOS result is invalidated only when a laboratory investigation finds an assignable
 * cause; retesting to "test into compliance" is not allowed, retests are limited in number and
 * performed by a second analyst. Microbial results: Fail is failing, and "above the action
 * level" reads their Alert (EU GMP Annex 1 (2022) §9.30).
 */

export const NEEDS_INVESTIGATION =
  'A failing result is set aside only by a laboratory investigation approved by QA (FDA OOS guidance): a reason alone is not enough';
export const RETEST_BY_OTHER_ANALYST =
  'A retest is entered by another analyst than the one who entered the result it repeats (verification settings)';
export const CORRECTION_NOT_ENOUGH =
  'A failing result is set aside only by a laboratory investigation approved by QA and a retest (FDA OOS guidance): a correction with a reason is not enough';

/** What the rule judges: a sample result by passed and percent, a microbial one by its outcome. */
export type Judged =
  | { passed: boolean | null; percent_of_limit: number | null }
  | { microbial: 'Pass' | 'Alert' | 'Fail' };

/** The facility's rule (verification settings). */
export interface OosRule {
  investigateAboveAction: boolean;
  actionPercent: number;
  maxRetests: number;
  retestByOtherAnalyst: boolean;
}

/** Whether a result is out of specification in the sense of the facility's rule. */
export const isOutOfSpecification = (
  result: Judged,
  rule: Pick<OosRule, 'investigateAboveAction' | 'actionPercent'>,
) =>
  'microbial' in result
    ? result.microbial === 'Fail' || (rule.investigateAboveAction && result.microbial === 'Alert')
    : result.passed === false ||
      (rule.investigateAboveAction &&
        result.percent_of_limit !== null &&
        Number(result.percent_of_limit) >= rule.actionPercent);

const isFailing = (result: Judged) =>
  'microbial' in result ? result.microbial === 'Fail' : result.passed === false;

/** The result a repeat would set aside, as far as the rule reads it. */
export interface RepeatedResult {
  judged: Judged;
  /** An approved investigation with an assignable laboratory cause invalidated it. */
  invalidated: boolean;
  /** Its investigation, if one was opened. */
  investigation: { number: string; approved: boolean } | null;
  /** How many retests of it (and of what it repeats) there are already. */
  retests: number;
  enteredBy: number | null;
  /** A microbial result's alert level, % of its limit, for the message. */
  alertPercent?: number | null;
}

/** Why the repeat is refused (empty: accepted). */
export function repeatProblems(
  original: RepeatedResult,
  rule: OosRule,
  repeat: { kind: 'retest' | 'reswab'; userId: number | null },
): string[] {
  if (!isOutOfSpecification(original.judged, rule)) return [];
  if (!original.invalidated) {
    const { investigation } = original;
    if (investigation === null)
      return [
        isFailing(original.judged)
          ? NEEDS_INVESTIGATION
          : 'microbial' in original.judged
            ? `A microbial result at or above the alert level (${Number(original.alertPercent)} % of its limit) is set aside only by a laboratory investigation approved by QA (verification settings): a reason alone is not enough`
            : `A result at or above the action level (${rule.actionPercent} %) is set aside only by a laboratory investigation approved by QA (verification settings): a reason alone is not enough`,
      ];
    if (!investigation.approved)
      return [
        `Investigation ${investigation.number} is not approved by QA yet: the result stands until it is`,
      ];
    return [
      `Investigation ${investigation.number} confirmed the result (no assignable laboratory cause): it stands and is not set aside`,
    ];
  }
  if (repeat.kind !== 'retest') return [];
  const problems: string[] = [];
  if (original.retests + 1 > rule.maxRetests)
    problems.push(
      `The facility allows ${rule.maxRetests} retest${rule.maxRetests === 1 ? '' : 's'} of a result (verification settings): this would be retest ${original.retests + 1}`,
    );
  if (rule.retestByOtherAnalyst && repeat.userId !== null && original.enteredBy === repeat.userId)
    problems.push(RETEST_BY_OTHER_ANALYST);
  return problems;
}

/** A correction that takes an out-of-specification result out of it sets it aside: refused. */
export const correctionSetsAside = (
  current: Judged,
  next: Judged,
  rule: Pick<OosRule, 'investigateAboveAction' | 'actionPercent'>,
) => isOutOfSpecification(current, rule) && !isOutOfSpecification(next, rule);
