import type { AuditAction } from '#core/audit/audit-events.ts';
import { AppError, validationError } from '#core/errors/errors.ts';
import {
  slugOf,
  type PropertyTarget,
  type TCreatePropertyDefinition,
  type TEditPropertyDefinition,
  type TPropertyDefinition,
} from '#core/schemas/additional-properties.schemas.ts';
import type { Db } from '#server/db/db.ts';
import { changedFields } from '#server/db/audit-diff.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { readAll, type FacilityScope } from '#server/entities/property-definitions.ts';
import { updateVersioned } from '#server/entities/versioned-update.ts';

// The reads live below the modules: every entity save checks its values against them.
export { listDefinitions, type FacilityScope } from '#server/entities/property-definitions.ts';

const TARGET_LABELS: Record<PropertyTarget, string> = {
  api: 'API',
  intermediate: 'intermediate',
  product: 'product',
  production: 'production',
};

async function change(
  db: Db,
  actor: Actor,
  scope: FacilityScope,
  target: PropertyTarget,
  apply: (list: TPropertyDefinition[]) => {
    list: TPropertyDefinition[];
    result: TPropertyDefinition;
    audit: {
      action: AuditAction<'AdditionalProperty'>;
      reason?: string;
      oldValues?: object;
      newValues: object;
    };
  },
): Promise<TPropertyDefinition> {
  return db.transaction(async (tx) => {
    const all = await readAll(tx, scope, true);
    const { list, result, audit } = apply(all[target]);
    // The definitions are part of the facility's record: its version moves and a version of
    // the facility is kept, as for any other edit of it.
    await updateVersioned(
      tx,
      { table: 'facilities', ownerColumn: 'plan_id', ownerId: scope.plan, id: scope.facility },
      actor.userId,
      { additional_properties: JSON.stringify({ ...all, [target]: list }) },
    );
    await writeAudit(tx, actor, {
      planId: scope.plan,
      facilityId: scope.facility,
      domain: 'AdditionalProperty',
      action: audit.action,
      entityId: `${target}.${result.key}`,
      reason: audit.reason ?? null,
      oldValues: (audit.oldValues as Record<string, unknown>) ?? null,
      newValues: audit.newValues as Record<string, unknown>,
    });
    return result;
  });
}

export async function createDefinition(
  db: Db,
  actor: Actor,
  scope: FacilityScope,
  target: PropertyTarget,
  body: TCreatePropertyDefinition,
): Promise<TPropertyDefinition> {
  const key = body.key ?? slugOf(body.label);
  return change(db, actor, scope, target, (list) => {
    const other = list.find((d) => d.key === key);
    if (other) {
      // Keys are never reused, so an archived definition's values cannot be read as a new one's.
      throw new AppError(
        other.archived ? 'ArchivedEntryError' : 'DuplicateEntryError',
        `An additional ${TARGET_LABELS[target]} property with key '${key}' already exists${other.archived ? ' (archived)' : ''}`,
        { errors: [{ property: 'key', constraints: { unique: `key '${key}' is already used` } }] },
      );
    }
    const now = new Date().toISOString();
    const result: TPropertyDefinition = {
      key,
      label: body.label,
      kind: body.kind,
      measure: body.measure ?? null,
      options: body.options ?? [],
      required: body.required ?? false,
      helpText: body.helpText ?? '',
      archived: false,
      archivedAt: null,
      archiveReason: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    const { label, kind, measure, options, required, helpText } = result;
    const audited = { key, label, kind, measure, options, required, helpText };
    return { list: [...list, result], result, audit: { action: 'Create', newValues: audited } };
  });
}

function found(list: TPropertyDefinition[], target: PropertyTarget, key: string) {
  const index = list.findIndex((d) => d.key === key);
  if (index < 0)
    throw new AppError(
      'NotFoundError',
      `No additional ${TARGET_LABELS[target]} property with key '${key}'`,
    );
  return { index, before: list[index]! };
}

export async function updateDefinition(
  db: Db,
  actor: Actor,
  scope: FacilityScope,
  target: PropertyTarget,
  key: string,
  body: TEditPropertyDefinition,
): Promise<TPropertyDefinition> {
  const { reason, version, unArchive, ...edit } = body;
  if (unArchive) return setDefinitionArchived(db, actor, scope, target, key, false, reason);
  return change(db, actor, scope, target, (list) => {
    const { index, before } = found(list, target, key);
    if (before.archived)
      throw new AppError(
        'ArchivedEntryError',
        'Data Archived: this property is archived. Restore it before editing it.',
      );
    if (version !== before.version) throw new AppError('VersionConflictError');
    if (edit.options !== undefined && before.kind !== 'select')
      throw validationError([
        { property: 'options', constraints: { kind: 'Only a select has options' } },
      ]);
    if (edit.options !== undefined && edit.options.length === 0)
      throw validationError([
        { property: 'options', constraints: { required: 'A select needs options' } },
      ]);
    const { oldValues, newValues } = changedFields(before, edit);
    const result: TPropertyDefinition = {
      ...before,
      ...newValues,
      version: before.version + 1,
      updatedAt: new Date().toISOString(),
    };
    const next = list.map((d, i) => (i === index ? result : d));
    return { list: next, result, audit: { action: 'Update', reason, oldValues, newValues } };
  });
}

export async function setDefinitionArchived(
  db: Db,
  actor: Actor,
  scope: FacilityScope,
  target: PropertyTarget,
  key: string,
  archived: boolean,
  reason: string,
): Promise<TPropertyDefinition> {
  return change(db, actor, scope, target, (list) => {
    const { index, before } = found(list, target, key);
    if (before.archived === archived)
      throw new AppError(
        'NothingToChangeError',
        archived ? 'This property is already archived.' : 'This property is not archived.',
      );
    const now = new Date().toISOString();
    const result: TPropertyDefinition = {
      ...before,
      archived,
      archivedAt: archived ? now : null,
      archiveReason: archived ? reason : null,
      version: before.version + 1,
      updatedAt: now,
    };
    const next = list.map((d, i) => (i === index ? result : d));
    return {
      list: next,
      result,
      audit: {
        action: archived ? 'Archive' : 'Unarchive',
        reason,
        oldValues: { archived: !archived },
        newValues: { archived },
      },
    };
  });
}
