import type { UpdatedDomain } from '#core/audit/audit-events.ts';
import type { Queryable } from '../db/db.ts';
import { writeAudit, type Actor } from '../db/audit-write.ts';
import { updateVersioned } from '../entities/versioned-update.ts';
import { recordEdit, type ControlledRef, type ControlledVersionState } from './controlled.ts';

/*
 * The writer of a controlled rule: a controlled record whose row keeps its working content as
 * one JSON column (a limit policy, the inspection settings). The content becomes the version
 * being built (refused while under review or approval), the row is written at the version the
 * edit was made from (409 otherwise) with its version bumped and the history row kept by the
 * trigger, and the change is audited, all in the caller's transaction (21 CFR 211.100(a):
 * changes to procedures are drafted, reviewed and approved; 21 CFR 11.10(e)).
 */

export interface ControlledRuleWrite {
  actor: Actor;
  ref: ControlledRef;
  /** Where the record's row keeps its working content. */
  table: string;
  column: string;
  /** The record's version the edit was made from. */
  version: number;
  content: Record<string, unknown>;
  title: string;
  audit: {
    /** A rule's own domain (a limit policy, the inspection settings): one that takes Update. */
    domain: UpdatedDomain;
    reason: string;
    oldValues: Record<string, unknown>;
    newValues: Record<string, unknown>;
  };
}

export async function writeControlledRule(
  tx: Queryable,
  { actor, ref, table, column, version, content, title, audit }: ControlledRuleWrite,
): Promise<{ version: number; state: ControlledVersionState }> {
  const state = await recordEdit(tx, actor, ref, content, title);
  const row = await updateVersioned(
    tx,
    { table, ownerColumn: 'facility_id', ownerId: ref.facilityId, id: ref.documentId, version },
    actor.userId,
    { [column]: JSON.stringify(content) },
    'version',
  );
  await writeAudit(tx, actor, {
    planId: ref.planId,
    facilityId: ref.facilityId,
    domain: audit.domain,
    action: 'Update',
    entityId: ref.documentId,
    reason: audit.reason,
    oldValues: audit.oldValues,
    newValues: audit.newValues,
  });
  return { version: row.version as number, state };
}
