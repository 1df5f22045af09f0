import { AppError } from '#core/errors/errors.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import type { Scope } from '#server/entities/entity-store.ts';
import { changedFields } from '../audit/audit-diff.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';

export type RuleKind =
  'MicrobialPolicy' | 'InspectionSettings' | 'ApprovalPolicy' | 'RiskGoal' | 'VerificationSettings';

export interface StoredRule<T> {
  body: T;
  version: number;
  /** When it was last changed; null for the defaults. */
  updatedAt: Date | null;
}

/** Where a rule document lives and the audit domain its changes are recorded under. */
export interface RuleRef<T> {
  kind: RuleKind;
  /** The document type of an approval policy; '' for facility-wide rules. */
  key: string;
  domain: string;
  defaults: T;
}

/** The facility's rule: the stored one over the defaults (fields added later get defaults), or the defaults at version 0. */
export async function getRule<T extends object>(
  q: Queryable,
  facilityId: number,
  ref: RuleRef<T>,
  lock = false,
): Promise<StoredRule<T>> {
  const [row] = await q.query<{ body: Partial<T>; version: number; updated_at: Date }>(
    `select body, version, updated_at from facility_rules where facility_id = $1 and kind = $2 and rule_key = $3
      ${lock ? 'for update' : ''}`,
    [facilityId, ref.kind, ref.key],
  );
  return row
    ? { body: { ...ref.defaults, ...row.body }, version: row.version, updatedAt: row.updated_at }
    : { body: ref.defaults, version: 0, updatedAt: null };
}

/**
 * Changes the fields an edit names, with the version it was made from (a stale one gets 409)
 * and a reason, audited field by field in the same transaction. `check` may refuse the result.
 */
export async function updateRule<T extends object>(
  db: Db,
  actor: Actor,
  scope: Scope,
  ref: RuleRef<T>,
  edit: Partial<T>,
  meta: { reason: string; version: number },
  check?: (tx: Queryable, next: T) => Promise<void>,
): Promise<StoredRule<T>> {
  return db.transaction(async (tx) => {
    const before = await getRule(tx, scope.facilityId, ref, true);
    if (meta.version !== before.version) throw new AppError('VersionConflictError');
    const { oldValues, newValues } = changedFields(
      before.body as Record<string, unknown>,
      edit as Record<string, unknown>,
    );
    const body = { ...before.body, ...newValues } as T;
    if (check) await check(tx, body);
    const [row] = await tx.query<{ id: number; version: number; updated_at: Date }>(
      `insert into facility_rules (facility_id, kind, rule_key, body, created_by, updated_by)
       values ($1, $2, $3, $4, $5, $5)
       on conflict (facility_id, kind, rule_key)
       do update set body = excluded.body, version = facility_rules.version + 1,
                     updated_at = now(), updated_by = excluded.updated_by
       returning id, version, updated_at`,
      [scope.facilityId, ref.kind, ref.key, JSON.stringify(body), actor.userId],
    );
    const keyed = ref.key ? { documentType: ref.key } : {};
    await writeAudit(tx, actor, {
      planId: scope.planId,
      facilityId: scope.facilityId,
      domain: ref.domain,
      action: before.version === 0 ? 'Create' : 'Update',
      entityId: row!.id,
      reason: meta.reason,
      oldValues: { ...keyed, ...oldValues },
      newValues: { ...keyed, ...newValues },
    });
    return { body, version: row!.version, updatedAt: row!.updated_at };
  });
}
