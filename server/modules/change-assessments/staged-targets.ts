import type { ZodError } from 'zod';
import { AppError, validationError } from '#core/errors/errors.ts';
import { actionOf, createSchema, editSchema, type EntityDef } from '#core/entities/entity.ts';
import { RECORD_DEFS } from '#core/entities/defs/index.ts';
import { missingRecord } from '#core/labels/missing-record.ts';
import type { CleaningLimitPolicy } from '#core/limits/policy.ts';
import { POLICY_TARGET, type TStagedChangeBody } from '#core/schemas/change-assessments.schemas.ts';
import { ZCleaningLimitPolicyRequest } from '#core/schemas/policy.schemas.ts';
import { withinTransaction, type Db, type Queryable } from '#server/db/db.ts';
import { getEntity } from '#server/entities/entity-store.ts';
import {
  archiveEntity,
  createEntity,
  restoreEntity,
  updateEntity,
} from '#server/entities/entity-write.ts';
import { bodyValidationError } from '#server/http/error-handler.ts';
import {
  approveByRecord,
  approvedContent,
  controlledStates,
  type ApprovedBy,
  type ApprovedContext,
} from '#server/records/controlled.ts';
import type { TControlledDocumentType } from '#core/schemas/signatures.schemas.ts';
import { lowerLabel } from '#core/entities/labels.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { getPolicy, policyRecordOf, updatePolicy } from '../policies/policies.service.ts';
import { policyTitle } from '../policies/policy-documents.ts';
import type { GuardResource } from '#core/permissions/permission-map.ts';

/*
 * What a staged change touches, and how it is checked, described and applied: through the very
 * calls a direct edit makes (createEntity/updateEntity/archiveEntity/restoreEntity of the
 * entity mechanism, updatePolicy of the policies), so that a staged change is refused exactly as
 * the direct edit would be, and applied exactly as it would have been.
 */

export type ChangeOp = TStagedChangeBody['op'];

/** A staged change as stored. */
export interface Change {
  op: ChangeOp;
  entity: string;
  recordId: number | null;
  recordVersion: number | null;
  values: Record<string, unknown>;
  reason: string;
}

export interface Scope {
  planId: number;
  facilityId: number;
}

export interface ApplyOptions {
  actor: Actor;
  scope: Scope;
  dbKind: Db['kind'];
  /**
   * The assessment whose approval applies it: a policy edit is put in force at once, its audit
   * entry sealed with the signatures' key.
   */
  approval?: { by: ApprovedBy; key: Buffer } | undefined;
  /** The audit reason ('CA-0003: <staged reason>'). */
  reason: string;
}

export interface StagedTarget {
  /** The permission the direct edit needs. */
  permission(op: ChangeOp): { resource: GuardResource; action: string };
  /** The values as the direct call's body schema takes them (its exact refusal otherwise). */
  validate(change: Change): Record<string, unknown>;
  /** The record's optimistic-lock version now (null for a create). */
  currentVersion(q: Queryable, facilityId: number, recordId: number): Promise<number>;
  /** "Product 'Tablet A': edit PDE". */
  label(q: Queryable, facilityId: number, change: Change): Promise<string>;
  apply(tx: Queryable, change: Change, options: ApplyOptions): Promise<void>;
}

/** "Product 'Tablet A'", or "An unnamed product" for a record without a name to show. */
const headOf = (record: Record<string, unknown>, def: EntityDef): string => {
  const named = [def.unique[0], 'name'].map((n) => (n ? record[n] : undefined));
  const found = named.find((v) => typeof v === 'string' && v !== '');
  return typeof found === 'string'
    ? `${def.label} '${found}'`
    : missingRecord(def.label, 'unnamed', true);
};

function fieldsOf(def: EntityDef | null, values: Record<string, unknown>): string {
  const labels = Object.keys(values).map(
    (name) => def?.fields.find((f) => f.name === name)?.label ?? name,
  );
  return labels.length ? labels.join(', ') : 'nothing';
}

function parsed<T>(result: { success: true; data: T } | { success: false; error: ZodError }): T {
  if (!result.success) throw bodyValidationError(result.error);
  return result.data;
}

export function needsRecord(change: Change): number {
  if (change.op === 'create') return 0;
  if (change.recordId === null)
    throw validationError([
      { property: 'recordId', constraints: { required: `A ${change.op} names the record` } },
    ]);
  return change.recordId;
}

export function entityTarget(def: EntityDef): StagedTarget {
  const operation = {
    create: 'add',
    update: 'modify',
    archive: 'archive',
    restore: 'archive',
  } as const;
  return {
    permission: (op) => ({ resource: def.resource, action: actionOf(def, operation[op]) }),
    validate(change) {
      if (change.op === 'create') {
        if (change.recordId !== null)
          throw validationError([
            { property: 'recordId', constraints: { invalid: 'A create names no record' } },
          ]);
        return parsed(createSchema(def).safeParse(change.values));
      }
      needsRecord(change);
      if (change.op !== 'update') {
        if (Object.keys(change.values).length > 0)
          throw validationError([
            { property: 'values', constraints: { invalid: `An ${change.op} takes no values` } },
          ]);
        return {};
      }
      const body = parsed(
        editSchema(def).safeParse({
          ...change.values,
          reason: change.reason,
          version: change.recordVersion ?? 0,
        }),
      ) as Record<string, unknown>;
      const { reason: _reason, version: _version, unArchive, ...edit } = body;
      if (unArchive !== undefined)
        throw validationError([
          { property: 'unArchive', constraints: { invalid: "Stage a 'restore' to unarchive" } },
        ]);
      return edit;
    },
    async currentVersion(q, facilityId, recordId) {
      return (await getEntity(q, def, facilityId, recordId)).version;
    },
    async label(q, facilityId, change) {
      const what =
        change.op === 'create'
          ? change.values
          : await getEntity(q, def, facilityId, needsRecord(change));
      const head = headOf(what, def);
      if (change.op === 'update') return `${head}: edit ${fieldsOf(def, change.values)}`;
      return `${head}: ${change.op}`;
    },
    async apply(tx, change, { actor, scope, reason }) {
      const write = { actor, def, scope };
      switch (change.op) {
        case 'create':
          await createEntity(tx, { ...write, values: change.values, reason });
          return;
        case 'update':
          await updateEntity(tx, {
            ...write,
            id: needsRecord(change),
            edit: change.values,
            reason,
            version: change.recordVersion ?? undefined,
          });
          return;
        case 'archive':
          // The assessor has seen the impact: that is what the evaluation is.
          await archiveEntity(tx, {
            ...write,
            id: needsRecord(change),
            reason,
            confirmImpact: true,
          });
          return;
        case 'restore':
          await restoreEntity(tx, { ...write, id: needsRecord(change), reason });
          return;
      }
    },
  };
}

/** A declared controlled record type: its declaration names its document type. */
type ControlledDef = EntityDef & { controlled: { documentType: TControlledDocumentType } };

/**
 * A record staged without an edit: its version being built is what the assessment puts in force
 * (the staged record version makes a later save stale).
 */
async function beingBuilt(q: Queryable, def: ControlledDef, facilityId: number, id: number) {
  const { documentType } = def.controlled;
  const state = (await controlledStates(q, { facilityId, documentType }, [id])).get(id);
  if (state?.status !== 'BeingBuilt')
    throw validationError([
      {
        property: 'values',
        constraints: {
          required: `This ${lowerLabel(def.label)} has no version being built: stage the edit to put in force`,
        },
      },
    ]);
  return id;
}

/**
 * A new record, or a new version of one, of a controlled type staged in a change assessment:
 * written on the direct path (its checks among it) as a version being built, and on the
 * assessment's approval (and its evaluation, rolled back) put in force by the assessment's
 * signatures (approveByRecord) as a policy edit is (EU GMP Annex 15 §11). `inForce`: what its
 * approval does besides, as its own signatures' approval would (a train's productions follow).
 */
export async function applyInForce(
  tx: Queryable,
  def: ControlledDef,
  change: Change,
  options: ApplyOptions,
  inForce?: (tx: Queryable, context: ApprovedContext) => Promise<unknown>,
): Promise<void> {
  const { actor, scope, reason, approval } = options;
  const write = { actor, def, scope, reason };
  const id =
    change.op === 'create'
      ? (await createEntity(tx, { ...write, values: change.values })).id
      : Object.keys(change.values).length === 0
        ? await beingBuilt(tx, def, scope.facilityId, needsRecord(change))
        : (
            await updateEntity(tx, {
              ...write,
              id: needsRecord(change),
              edit: change.values,
              version: change.recordVersion ?? undefined,
            })
          ).id;
  if (!approval) return;
  const ref = { ...scope, documentType: def.controlled.documentType, documentId: id };
  const { versionNumber } = await approveByRecord(tx, actor, ref, approval.by, approval.key);
  const content = (await approvedContent(tx, ref)) ?? {};
  await inForce?.(tx, { actor, ref, versionNumber, content, key: approval.key });
}

/** Edits of a cleaning limit policy (recordId = the policy's id); put in force on approval. */
const policyTarget: StagedTarget = {
  permission: () => ({ resource: 'CleaningPolicy', action: 'Modify' }),
  validate(change) {
    if (change.op !== 'update')
      throw validationError([
        { property: 'op', constraints: { invalid: 'A cleaning limit policy is only edited' } },
      ]);
    needsRecord(change);
    const body = parsed(
      ZCleaningLimitPolicyRequest.safeParse({
        ...change.values,
        residueType: 'Chemical',
        reason: change.reason,
        version: change.recordVersion ?? 0,
      }),
    );
    const { residueType: _type, reason: _reason, version: _version, ...edit } = body;
    if ('residueType' in change.values)
      throw validationError([
        { property: 'residueType', constraints: { unknown: 'is not a field of this request' } },
      ]);
    return edit;
  },
  async currentVersion(q, facilityId, recordId) {
    const { residueType } = await policyRecordOf(q, facilityId, String(recordId));
    return (await getPolicy(q, facilityId, residueType)).version;
  },
  async label(q, facilityId, change) {
    const { residueType } = await policyRecordOf(q, facilityId, String(needsRecord(change)));
    return `${policyTitle(residueType)}: edit ${fieldsOf(null, change.values)}`;
  },
  async apply(tx, change, { actor, scope, dbKind, reason, approval }) {
    const { residueType } = await policyRecordOf(tx, scope.facilityId, String(needsRecord(change)));
    // The record holds its latest version: over a version in progress, the staged edit would
    // carry that version's unapproved changes into force with it.
    const now = await getPolicy(tx, scope.facilityId, residueType, { read: 'draft' });
    if (now.status !== 'Approved')
      throw new AppError(
        'TransactionLocked',
        `The ${policyTitle(residueType)} has version ${now.versionNumber} in progress; a change assessment changes the version in force only`,
      );
    // updatePolicy opens its transaction on a Db: it joins this one.
    const db: Db = withinTransaction(tx, dbKind);
    const saved = await updatePolicy(
      db,
      actor,
      scope,
      residueType,
      change.values as Partial<CleaningLimitPolicy>,
      { reason, version: change.recordVersion ?? now.version },
    );
    if (approval)
      await approveByRecord(
        tx,
        actor,
        { ...scope, documentType: 'CleaningLimitPolicy', documentId: saved.id },
        approval.by,
        approval.key,
      );
  },
};

const registered = new Map<string, StagedTarget>();

/**
 * A target of a module of its own (the link of an active to the plan's HBEL library): staged,
 * checked, evaluated and applied like the others. Again replaces.
 */
export function registerStagedTarget(entity: string, target: StagedTarget): void {
  registered.set(entity, target);
}

/**
 * The target a staged change names: a declared record type, a cleaning limit policy, or a
 * registered target.
 */
export function stagedTarget(entity: string): StagedTarget {
  if (entity === POLICY_TARGET) return policyTarget;
  const own = registered.get(entity);
  if (own) return own;
  const def = RECORD_DEFS.find((d) => d.key === entity);
  if (!def)
    throw validationError([
      {
        property: 'entity',
        constraints: { invalid: `${entity} is not a record type a change assessment can stage` },
      },
    ]);
  return entityTarget(def);
}
