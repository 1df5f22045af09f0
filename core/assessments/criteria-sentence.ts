import { CRITERION_NAMES } from '../labels/enum-labels.ts';
import { CRITERION_KEYS } from '../limits/compile.ts';
import type { CriterionKey } from '../limits/compile.ts';
import { moved } from '../limits/pair-walk.ts';
import type { TImpactCriteria, TImpactPair } from '../schemas/change-assessments.schemas.ts';

import { formatQuantity } from '../units/format-number.ts';

/** What the sentence needs of a pair: the governing criterion on each side, and every criterion. */
export interface CriteriaOfPair {
  before: { criterion: string | null } | null;
  after: { criterion: string | null } | null;
  criteria?: TImpactCriteria | undefined;
}

/**
 * Why a pair's limit moved or stayed (issue 30), in one sentence a reviewer reads: each criterion
 * that moved, before → after, then which criterion governs before and after, e.g.
 * "Health-based 223 mg → 112 mg; dose-based 50 mg still governs". The one wording of the
 * change assessment's screen, its impact PDF and the what-if screen; null when the pair carries no
 * criteria.
 */
export function criteriaSentence(pair: CriteriaOfPair, digits?: number): string | null {
  const criteria = pair.criteria;
  if (!criteria) return null;
  const amount = (value: number | null) => formatQuantity(value, criteria.unit, digits);
  const before = (key: CriterionKey) => criteria.before?.[key] ?? null;
  const after = (key: CriterionKey) => criteria.after?.[key] ?? null;
  const listed = new Set<string>();
  const moves: string[] = [];
  for (const key of CRITERION_KEYS) {
    const then = before(key);
    const now = after(key);
    if (then === null && now === null) continue;
    if (then !== null && now !== null && !moved(then, now)) continue;
    const name = CRITERION_NAMES[key];
    listed.add(key);
    moves.push(
      then === null
        ? `${name} now applies at ${amount(now)}`
        : now === null
          ? `${name} no longer applies (was ${amount(then)})`
          : `${name} ${amount(then)} → ${amount(now)}`,
    );
  }
  const governs = governingClause(
    governing(pair.before?.criterion),
    governing(pair.after?.criterion),
    (key) =>
      listed.has(key) ? CRITERION_NAMES[key] : `${CRITERION_NAMES[key]} ${amount(after(key))}`,
  );
  const sentence = `${moves.length === 0 ? 'no criterion moved' : moves.join(', ')}; ${governs}`;
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

function governing(key: string | null | undefined): CriterionKey | null {
  return key && (CRITERION_KEYS as readonly string[]).includes(key) ? (key as CriterionKey) : null;
}

/** Which criterion governs before and after; `named` adds the value unless it is already said. */
function governingClause(
  then: CriterionKey | null,
  now: CriterionKey | null,
  named: (key: CriterionKey) => string,
): string {
  if (now === null) {
    return then === null
      ? 'no criterion applies'
      : `no criterion governs any more (${CRITERION_NAMES[then]} did)`;
  }
  if (then === now) return `${named(now)} still governs`;
  if (then === null) return `${named(now)} now governs`;
  return `${named(now)} now governs instead of ${CRITERION_NAMES[then]}`;
}

/**
 * A listed pair whose limits stay, governed by the same criterion, while a criterion that does
 * not govern moved: the pairs an evaluation where nothing moved is explained by.
 */
export function limitStays(pair: Pick<TImpactPair, 'before' | 'after' | 'criteria'>): boolean {
  const { before, after } = pair;
  if (!pair.criteria || !before || !after || before.criterion !== after.criterion) return false;
  const same = (a: number | null, b: number | null) => !moved(a ?? Number.NaN, b ?? Number.NaN);
  return (
    same(before.maco, after.maco) &&
    same(before.sal, after.sal) &&
    same(before.swab, after.swab) &&
    same(before.rinse, after.rinse)
  );
}
