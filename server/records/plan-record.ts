import { AppError } from '#core/errors/errors.ts';
import type { AuditDomain } from '#core/audit/audit-events.ts';
import type { RecordDecl } from '#core/entities/record-decl.ts';
import type { Queryable } from '../db/db.ts';
import { writeAudit, type Actor } from '../db/audit-write.ts';
import { updateVersioned, type Assigned } from '../entities/versioned-update.ts';
import type { RecordAudit, StoredRow } from './write-record.ts';

/*
 * The one write path for a record of the plan kept as one row per plan, keyed by `plan_id`
 * (plan_settings: password policy, allowed domains, directory and single sign-on settings):
 * the row locked and made with its defaults on the first edit, the version the edit was made
 * from checked, then the columns written with the version bumped (updateVersioned, the history
 * row kept by the trigger) and the audit row, in the caller's transaction (21 CFR 11.10(e)).
 */

/** The plan's row locked (made with its defaults first); 409 when `version` is stale. */
export async function openPlanRecord<T extends object>(
  tx: Queryable,
  decl: RecordDecl,
  planId: number,
  version: number,
): Promise<T & StoredRow> {
  await tx.query(`insert into ${decl.table} (plan_id) values ($1) on conflict do nothing`, [
    planId,
  ]);
  const [row] = await tx.query<T & StoredRow>(
    `select * from ${decl.table} where plan_id = $1 for update`,
    [planId],
  );
  if (row!.version !== version) throw new AppError('VersionConflictError');
  return row!;
}

export interface PlanRecordWrite<D extends AuditDomain> {
  actor: Actor;
  planId: number;
  /** The row as openPlanRecord locked it. */
  row: StoredRow;
  set: Readonly<Record<string, Assigned>>;
  audit: RecordAudit<D>;
}

/** Writes an opened plan record at the version it was read at, and its audit row. */
export async function writePlanRecord<D extends AuditDomain>(
  tx: Queryable,
  decl: RecordDecl & { domain: D },
  { actor, planId, row, set, audit }: PlanRecordWrite<D>,
): Promise<StoredRow> {
  const target = {
    table: decl.table,
    ownerColumn: 'plan_id',
    idColumn: 'plan_id',
    ownerId: planId,
    id: planId,
    version: row.version as number,
  };
  const saved = await updateVersioned(tx, target, actor.userId, set);
  await writeAudit(tx, actor, {
    planId,
    domain: decl.domain,
    action: audit.action,
    entityId: audit.entity ?? planId,
    reason: audit.reason ?? null,
    oldValues: audit.oldValues ?? null,
    newValues: audit.newValues ?? null,
  });
  return saved;
}
