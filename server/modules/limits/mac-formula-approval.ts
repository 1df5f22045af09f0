import { macFormulaProblem } from '#core/limits/mac-formula.ts';
import type { Queryable } from '#server/db/db.ts';
import {
  ControlledRefusal,
  type ApprovedContext,
  type ApprovingContext,
} from '#server/records/controlled.ts';

/*
 * A MAC formula's version is checked again where it is submitted and where it is put in force,
 * on the content the signers saw: its expression parsed by the safe evaluator's parser and its
 * units reduced to a mass (core/limits/mac-formula.ts), as a save checks it. A version that
 * reached either point without that check (saved before the check existed, written by other
 * means) would otherwise become a criterion of the limits unchecked (21 CFR 211.68(b), EU GMP
 * Annex 11 §5: checks of data entered into a computerised system).
 */

function problemOf(content: Record<string, unknown>): string | undefined {
  const { expression } = content;
  if (typeof expression !== 'string' || expression.trim() === '') return 'it has no expression';
  return macFormulaProblem(expression);
}

/** The refusal of a version whose expression fails the check, saying what to do instead. */
function unchecked(
  { actor, ref, versionNumber, content }: ApprovedContext,
  problem: string,
  attempted: 'Submit' | 'Approve',
  instead: string,
): ControlledRefusal {
  const name = typeof content.name === 'string' ? `'${content.name}' ` : '';
  const what = attempted === 'Submit' ? 'submitted' : 'put in force';
  return new ControlledRefusal(
    'DataValidationError',
    `MAC formula ${name}version ${versionNumber} cannot be ${what}: ${problem}. ${instead}`,
    actor,
    ref,
    attempted,
    [{ property: 'expression', constraints: { units: problem } }],
  );
}

/** The MAC formula's hooks on the record mechanism's Submit and approval. */
export const macFormulaChecks = {
  async beforeSubmit(_tx: Queryable, context: ApprovedContext): Promise<void> {
    const problem = problemOf(context.content);
    if (problem) throw unchecked(context, problem, 'Submit', 'Correct its expression and save it.');
  },
  async beforeApprove(_tx: Queryable, context: ApprovingContext): Promise<void> {
    const problem = problemOf(context.content);
    if (!problem) return;
    throw unchecked(
      context,
      problem,
      'Approve',
      context.by
        ? `${context.by.label} cannot put it in force as it is: correct its expression.`
        : 'Reject it, correct its expression and submit it again.',
    );
  },
};
