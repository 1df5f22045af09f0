import { ENTITY_DEFS } from '#core/entities/defs/index.ts';
import { mocRecordsDef } from '#core/entities/defs/documents.def.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import { actionOf } from '#core/entities/entity.ts';
import { POLICY_TARGET } from '#core/schemas/change-assessments.schemas.ts';
import type { TStagedChange } from '#core/schemas/change-assessments.schemas.ts';

export type StageOp = TStagedChange['op'];

/** The master data a change may stage: every declared record but the change-control register. */
export const STAGEABLE_DEFS: readonly EntityDef[] = ENTITY_DEFS.filter(
  (def) => def.key !== mocRecordsDef.key,
);

export const OP_LABELS: Record<StageOp, string> = {
  create: 'Add',
  update: 'Edit',
  archive: 'Archive',
  restore: 'Restore',
};

/** The permission a direct write needs, which staging it needs too (README: staging). */
export function stageAction(def: EntityDef, op: StageOp): string {
  return actionOf(def, op === 'create' ? 'add' : op === 'update' ? 'modify' : 'archive');
}

/** The declared record a staged change touches, or null for a policy (or an unknown key). */
export function defOfChange(change: Pick<TStagedChange, 'entity'>): EntityDef | null {
  if (change.entity === POLICY_TARGET) return null;
  return ENTITY_DEFS.find((def) => def.key === change.entity) ?? null;
}

/** Whether a staged change can be opened again in its form (archive and restore have none). */
export function isEditable(change: Pick<TStagedChange, 'op' | 'entity'>): boolean {
  if (change.op === 'archive' || change.op === 'restore') return false;
  return change.entity === POLICY_TARGET || defOfChange(change) !== null;
}
