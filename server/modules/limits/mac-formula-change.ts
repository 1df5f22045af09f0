import { macFormulasDef } from '#core/entities/defs/index.ts';
import { getEntity } from '#server/entities/entity-store.ts';
import { createEntity, updateEntity } from '#server/entities/entity-write.ts';
import type { Queryable } from '#server/db/db.ts';
import { validationError } from '#core/errors/errors.ts';
import { approveByRecord, controlledStates } from '#server/records/controlled.ts';
import {
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

const DOCUMENT_TYPE = macFormulasDef.controlled.documentType;

const base = entityTarget(macFormulasDef);

const isEmpty = (values: Record<string, unknown>) => Object.keys(values).length === 0;

/**
 * A formula saved on the screen, staged without an edit: its version being built is what the
 * assessment puts in force (the staged record version makes a later save stale).
 */
async function beingBuilt(q: Queryable, facilityId: number, id: number): Promise<number> {
  const state = (await controlledStates(q, { facilityId, documentType: DOCUMENT_TYPE }, [id])).get(
    id,
  );
  if (state?.status !== 'BeingBuilt')
    throw validationError([
      {
        property: 'values',
        constraints: {
          required: 'This MAC formula has no version being built: stage the edit to put in force',
        },
      },
    ]);
  return id;
}

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
    const { actor, scope, reason, approval } = options;
    const write = { actor, def: macFormulasDef, scope, reason };
    const id =
      change.op === 'create'
        ? (await createEntity(tx, { ...write, values: change.values })).id
        : isEmpty(change.values)
          ? await beingBuilt(tx, scope.facilityId, needsRecord(change))
          : (
              await updateEntity(tx, {
                ...write,
                id: needsRecord(change),
                edit: change.values,
                version: change.recordVersion ?? undefined,
              })
            ).id;
    if (approval)
      await approveByRecord(
        tx,
        actor,
        { ...scope, documentType: DOCUMENT_TYPE, documentId: id },
        approval.by,
        approval.key,
      );
  },
};

export function registerMacFormulaChanges(): void {
  registerStagedTarget(macFormulasDef.key, macFormulaTarget);
}
