import { macFormulasDef } from '#core/entities/defs/index.ts';
import { getEntity } from '#server/entities/entity-store.ts';
import {
  applyInForce,
  entityTarget,
  needsRecord,
  registerStagedTarget,
  type StagedTarget,
} from '../change-assessments/staged-targets.ts';

/*
 * A MAC formula is one more MACO criterion: approving a version moves limits. In a facility with
 * change control it is put in force only by the approval of a change assessment that staged it
 * and showed its effect on every pair (EU GMP Annex 15 §11, ICH Q9: a change to the basis of
 * the limits is assessed before it is made); a lite facility, with no change control, approves
 * it directly. Which of the two is the declaration's (`changeControlled`), judged by the sign
 * service and the screen alike (core/records/change-controlled.ts).
 */

const base = entityTarget(macFormulasDef);

const isEmpty = (values: Record<string, unknown>) => Object.keys(values).length === 0;

/**
 * A new formula, or a new version of one, staged in a change assessment: checked as the direct
 * save is (its units among it), and put in force on the assessment's approval, its version
 * approved by the assessment (approveByRecord) as a policy edit is.
 */
const macFormulaTarget: StagedTarget = {
  ...base,
  async label(q, facilityId, change) {
    if (change.op !== 'create' && change.op !== 'update') return base.label(q, facilityId, change);
    const head = isEmpty(change.values)
      ? (await base.label(q, facilityId, change)).replace(
          /: edit nothing$/,
          ': version being built',
        )
      : await base.label(q, facilityId, change);
    const now: Record<string, unknown> =
      change.op === 'update'
        ? await getEntity(q, macFormulasDef, facilityId, needsRecord(change))
        : {};
    const expression = change.values.expression ?? now.expression;
    return `${head}, put in force: MACO = ${String(expression)}`;
  },
  async apply(tx, change, options) {
    if (change.op !== 'create' && change.op !== 'update') return base.apply(tx, change, options);
    await applyInForce(tx, macFormulasDef, change, options);
  },
};

export function registerMacFormulaChanges(): void {
  registerStagedTarget(macFormulasDef.key, macFormulaTarget);
}
