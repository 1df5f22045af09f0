import type { UpdatedDomain } from '#core/audit/audit-events.ts';
import { AppError } from '#core/errors/errors.ts';
import type { ResidueType } from '#core/limits/policy.ts';
import type {
  TControlledDocumentType,
  TRecordStatus,
  TSignatureState,
} from '#core/schemas/signatures.schemas.ts';
import { recordAfterRollback, type Db, type Queryable } from '#server/db/db.ts';
import { tableAsOf, type AsOfOptions } from '#server/entities/entity-history.ts';
import {
  controlledState,
  isDraftStatus,
  versionInForce,
  versionNumbers,
} from '#server/records/controlled.ts';
import { writeControlledRule } from '#server/records/controlled-rule.ts';
import { signatureKey } from '#server/records/signature-binding.ts';
import type { AppContext } from '#server/http/app-context.ts';
import { integrityOf, shownState, type Integrity } from '#server/records/record-integrity.ts';
import { cleaningLimitPoliciesDecl } from '#core/entities/defs/policies.def.ts';
import type { TControlledReadQuery } from '#core/schemas/versions.schemas.ts';
import { changedFields } from '#server/db/audit-diff.ts';
import type { Actor } from '#server/db/audit-write.ts';

/*
 * The facility's limit policies (one per residue type, and the microbial one) and its cleaning
 * inspection settings: one controlled record each per facility, created with the facility
 * (migration 20261124300100). The record's row holds the latest version's content, which the
 * editing screens read as the draft; a plain read and the limits answer the approved version
 * (versionInForce, policy-in-force.ts).
 */

export type PolicyKind = ResidueType | 'Microbial' | 'InspectionSettings';

interface Place {
  documentType: TControlledDocumentType;
  table: string;
  /** id, body and version of the record from `{table}`, by facility ($1) and kind ($2). */
  select: string;
  /** The column that keeps the working content. */
  column: string;
}

const POLICIES: Place = {
  documentType: 'CleaningLimitPolicy',
  table: cleaningLimitPoliciesDecl.table,
  select: `select id, policy as body, version from {table}
            where facility_id = $1 and residue_type = $2`,
  column: 'policy',
};
const RULES: Place = {
  documentType: 'CleaningInspectionSettings',
  table: 'facility_rules',
  select: `select id, body, version from {table}
            where facility_id = $1 and kind = $2 and rule_key = ''`,
  column: 'body',
};

/** The query of a place's record, from its table or another source (the table as of a moment). */
export function selectRecord(place: Place, source: string = place.table): string {
  return place.select.replace('{table}', source);
}

export const placeOf = (kind: PolicyKind): Place =>
  kind === 'InspectionSettings' ? RULES : POLICIES;

/** The title a version carries in lists of approvals and signatures. */
export function policyTitle(kind: PolicyKind): string {
  return kind === 'InspectionSettings'
    ? 'Cleaning inspection settings'
    : `${kind} cleaning limit policy`;
}

export interface PolicyDocument<T> extends Integrity {
  id: number;
  /** The content of the version read: the one in force, or the draft (see PolicyRead.read). */
  body: T;
  /** The optimistic-lock counter of the record. */
  version: number;
  status: TRecordStatus;
  signatureState: TSignatureState | null;
  versionNumber: number;
  /** The version in force (then, with asOf); null before the first approval. */
  inForceVersionNumber: number | null;
  /** A later version being built, reviewed or approved (then, with asOf); null when none. */
  draftVersionNumber: number | null;
}

export interface PolicyRead extends AsOfOptions {
  /** Locks the record's row for an edit (not with asOf); an edit reads the draft. */
  lock?: boolean;
  /**
   * 'inForce' (the plain read): the approved version, which runs and limits enforce; 'draft':
   * the latest version, the one an edit changes (the version in force when none is in progress).
   * Before any approval both answer the latest.
   */
  read?: 'inForce' | 'draft';
  /**
   * The signatures' MAC key: with it the read carries the record's integrity, as a controlled
   * entity's read does (record-integrity.ts): a version in force whose signed content no longer
   * matches reads as IntegrityBroken with the reason, never as Approved. With asOf, the
   * integrity as it is now.
   */
  key?: Buffer;
}

/**
 * The read a controlled record's query asks for: the version in force unless `version=draft`,
 * with its integrity checked under the signatures' MAC key.
 */
export const readOf = (query: TControlledReadQuery, key: Buffer): PolicyRead => ({
  asOf: query.asOf,
  read: query.version === 'draft' ? 'draft' : 'inForce',
  key,
});

/** The reads of a route's queries, each with the key its integrity is checked under. */
export const readerOf =
  ({ app, config }: Pick<AppContext, 'app' | 'config'>) =>
  async (query: TControlledReadQuery): Promise<PolicyRead> =>
    readOf(query, await signatureKey(config, (message) => app.log.warn(message)));

/** The record of a kind in a facility, with the version asked for (or as it was at asOf). */
export async function getPolicyDocument<T>(
  q: Queryable,
  facilityId: number,
  kind: PolicyKind,
  { lock = false, asOf, read = lock ? 'draft' : 'inForce', key }: PolicyRead = {},
): Promise<PolicyDocument<T>> {
  const place = placeOf(kind);
  const source = asOf ? tableAsOf(place.table, 1, 3) : place.table;
  const [row] = await q.query<{ id: number; body: T; version: number }>(
    `${selectRecord(place, source)} ${lock && !asOf ? 'for update' : ''}`,
    asOf ? [facilityId, kind, asOf] : [facilityId, kind],
  );
  if (!row) {
    const when = asOf ? ` at ${asOf}` : '';
    throw new AppError('NotFoundError', `No ${policyTitle(kind)} in this facility${when}`);
  }
  const ref = { facilityId, documentType: place.documentType, documentId: row.id };
  const [latest, inForce, integrity] = await Promise.all([
    controlledState(q, ref, { asOf }),
    versionInForce<T>(q, ref, { asOf }),
    key ? integrityOf(q, key, ref, [row.id]) : undefined,
  ]);
  // Every record has version 1 from its creation; a missing one would be a broken migration.
  if (!latest) throw new Error(`${policyTitle(kind)} ${row.id} has no controlled version`);
  const versions = versionNumbers(latest, inForce);
  const checked = integrity?.(row.id);
  if (read === 'inForce' && inForce) {
    const { content, ...state } = inForce;
    return {
      id: row.id,
      body: content,
      version: row.version,
      ...shownState(state, checked),
      ...versions,
    };
  }
  return { ...row, ...shownState(latest, checked), ...versions };
}

export interface PolicyEdit<T> {
  edit: Partial<T>;
  reason: string;
  /** The record's version the edit was made from; a stale one gets 409. */
  version: number;
  /** The audit domain of the change. */
  domain: UpdatedDomain;
  /** Completes the new content (the residue type) and refuses what may not be stored. */
  prepare?: (tx: Queryable, next: T) => Promise<T>;
}

/**
 * Changes the fields an edit names through the controlled record: an Approved record starts its
 * next version in Being Built (the approved one stays in force), a record under review or
 * approval is refused with TransactionLocked. Audited field by field in the same transaction.
 */
export async function updatePolicyDocument<T extends object>(
  db: Db,
  actor: Actor,
  scope: { planId: number; facilityId: number },
  kind: PolicyKind,
  change: PolicyEdit<T>,
): Promise<PolicyDocument<T>> {
  const place = placeOf(kind);
  try {
    return await db.transaction(async (tx) => {
      const before = await getPolicyDocument<T>(tx, scope.facilityId, kind, { lock: true });
      if (change.version !== before.version) throw new AppError('VersionConflictError');
      const { oldValues, newValues } = changedFields(
        before.body as Record<string, unknown>,
        change.edit as Record<string, unknown>,
      );
      const merged = { ...before.body, ...newValues } as T;
      const body = change.prepare ? await change.prepare(tx, merged) : merged;
      const keyed =
        kind === 'InspectionSettings' || kind === 'Microbial' ? {} : { residueType: kind };
      const { version, state } = await writeControlledRule(tx, {
        actor,
        ref: { ...scope, documentType: place.documentType, documentId: before.id },
        table: place.table,
        column: place.column,
        version: change.version,
        content: body as Record<string, unknown>,
        title: policyTitle(kind),
        audit: {
          domain: change.domain,
          reason: change.reason,
          oldValues: { ...keyed, ...oldValues },
          newValues: { ...keyed, ...newValues },
        },
      });
      return {
        id: before.id,
        body,
        version,
        ...state,
        inForceVersionNumber: before.inForceVersionNumber,
        draftVersionNumber: isDraftStatus(state.status) ? state.versionNumber : null,
      };
    });
  } catch (error) {
    await recordAfterRollback(error, db);
    throw error;
  }
}
