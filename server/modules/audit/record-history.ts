import { AUDIT_DEFS, parentOf } from '#core/audit/audit-format.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import type { SqlValue } from '#server/db/db.ts';
import type { AuditWhere } from './audit-log.service.ts';

export interface RecordHistoryTarget {
  def: EntityDef;
  planId: number;
  /** The facility the record belongs to; null for a plan's record. */
  facilityId: number | null;
  id: number;
}

/**
 * The audit rows of one record: its own (create, edits, archiving), the signatures of it when
 * it is a controlled record, and the rows of its children (a piece of equipment's sampling
 * locations), which name their parent in their values for this.
 */
export function recordHistoryWhere({
  def,
  planId,
  facilityId,
  id,
}: RecordHistoryTarget): AuditWhere {
  const params: SqlValue[] = [planId, facilityId, def.domain, String(id)];
  const own = ['(a.domain = $3 and a.entity_id = $4)'];
  if (def.controlled) {
    params.push(def.controlled.documentType);
    own.push(
      `(a.domain = 'ElectronicSignature' and a.entity_id = $4 and a.new_values->>'documentType' = $${params.length})`,
    );
  }
  for (const child of AUDIT_DEFS) {
    const parent = parentOf(child);
    if (parent?.entity !== def.key) continue;
    params.push(child.domain, parent.field);
    const n = params.length;
    own.push(`(a.domain = $${n - 1} and a.new_values->>$${n} = $4)`);
  }
  return {
    sql: `a.plan_id = $1 and a.facility_id is not distinct from $2::int and (${own.join(' or ')})`,
    params,
  };
}

/**
 * The audit rows of one user account: its own (invited, edited, locked, roles, password set)
 * and the security events about it (a password set again through a secret key), in the
 * facilities the reader is granted or in none. An administrator sees there when an account's
 * password was taken over (21 CFR 11.300(d), EU GMP Annex 11 §12.3).
 */
export function userHistoryWhere(planId: number, facilityIds: number[], id: number): AuditWhere {
  return {
    sql: `a.plan_id = $1 and (a.facility_id is null or a.facility_id = any($2::int[]))
      and a.domain in ('User', 'Security') and a.entity_id = $3`,
    params: [planId, facilityIds, String(id)],
  };
}
