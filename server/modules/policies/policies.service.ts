import { AppError } from '../../../core/errors/errors.ts';
import {
  defaultPolicy,
  effectiveSafetyFactor,
  type CleaningLimitPolicy,
  type ResidueType,
} from '../../../core/limits/policy.ts';
import type { TCleaningLimitPolicy } from '../../../core/schemas/policy.schemas.ts';
import type { Db, Queryable } from '../../db/db.ts';
import { changedFields } from '../audit/audit-diff.ts';
import { writeAudit, type Actor } from '../audit/audit.service.ts';

export interface StoredPolicy {
  id: number | null;
  residueType: ResidueType;
  policy: TCleaningLimitPolicy;
  safetyFactor: number;
  modificationFactor: number;
  version: number;
}

/** The policy as the reads answer it: the stored fields over the residue type's defaults. */
export function view(
  id: number | null,
  residueType: ResidueType,
  policy: CleaningLimitPolicy,
  version: number,
): StoredPolicy {
  const full = { ...defaultPolicy(residueType), ...policy, residueType };
  return {
    id,
    residueType,
    // The engine's units are wider than a policy may hold; stored policies passed the schema.
    policy: full as unknown as TCleaningLimitPolicy,
    safetyFactor: effectiveSafetyFactor(full),
    modificationFactor: full.modificationFactor,
    version,
  };
}

/** The facility's policy for a residue type: the stored one, or the defaults (version 0). */
export async function getPolicy(
  q: Queryable,
  facilityId: number,
  residueType: ResidueType,
  lock = false,
): Promise<StoredPolicy> {
  const [row] = await q.query<{ id: number; policy: CleaningLimitPolicy; version: number }>(
    `select id, policy, version from cleaning_limit_policies
      where facility_id = $1 and residue_type = $2 ${lock ? 'for update' : ''}`,
    [facilityId, residueType],
  );
  return row
    ? view(row.id, residueType, row.policy, row.version)
    : view(null, residueType, defaultPolicy(residueType), 0);
}

export async function updatePolicy(
  db: Db,
  actor: Actor,
  scope: { planId: number; facilityId: number },
  residueType: ResidueType,
  edit: Partial<CleaningLimitPolicy>,
  meta: { reason: string; version: number },
): Promise<StoredPolicy> {
  return db.transaction(async (tx) => {
    const before = await getPolicy(tx, scope.facilityId, residueType, true);
    if (meta.version !== before.version) throw new AppError('VersionConflictError');
    if (
      residueType === 'Intermediate' &&
      edit.safetyFactor !== undefined &&
      edit.safetyFactor !== 1000
    ) {
      throw new AppError(
        'DataValidationError',
        'The Intermediate policy uses a safety factor of 1000',
        {
          errors: [
            {
              property: 'safetyFactor',
              constraints: { fixed: 'is fixed at 1000 for Intermediate' },
            },
          ],
        },
      );
    }
    const { oldValues, newValues } = changedFields(
      before.policy as unknown as Record<string, unknown>,
      edit,
    );
    const policy = { ...before.policy, ...newValues, residueType } as CleaningLimitPolicy;
    const [row] = await tx.query<{ id: number; version: number }>(
      `insert into cleaning_limit_policies (facility_id, residue_type, policy, created_by, updated_by, version)
       values ($1, $2, $3, $4, $4, 1)
       on conflict (facility_id, residue_type)
       do update set policy = excluded.policy, version = cleaning_limit_policies.version + 1,
                     updated_at = now(), updated_by = excluded.updated_by
       returning id, version`,
      [scope.facilityId, residueType, JSON.stringify(policy), actor.userId],
    );
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: 'CleaningPolicy',
      action: before.id === null ? 'Create' : 'Update',
      entityId: row!.id,
      reason: meta.reason,
      oldValues: { residueType, ...oldValues },
      newValues: { residueType, ...newValues },
    });
    return view(row!.id, residueType, policy, row!.version);
  });
}
