import type { EntityDef } from '#core/entities/entity.ts';
import type { Queryable } from '../db/db.ts';
import type { Actor } from '../db/audit-write.ts';
import type { RecordScope } from './entity-scope.ts';
import type { EntityRecord, Scope } from './entity-store.ts';

/*
 * Server-side rules of a declared record that need the database (pure rules across fields are
 * EntityDef.check). They run inside the write's transaction and throw a catalogue error to
 * refuse. Modules register them per entity and name, so the store and routes stay the same for
 * every record; registering the same name again replaces the hook.
 */

/** What the archive request says beyond its reason. */
export interface ArchiveOptions {
  /** The caller has seen what archiving changes (where the record is used) and goes ahead. */
  confirmImpact?: boolean | undefined;
}

/** Before a facility's record is archived, on the locked record. */
export type BeforeArchive = (
  q: Queryable,
  def: EntityDef,
  scope: Scope,
  record: EntityRecord,
  options: ArchiveOptions,
) => Promise<void>;

/**
 * Before a record is created or edited: `record` is the whole record as it would be saved,
 * `changed` the fields being set, `id` the edited record's (null on create).
 */
export type BeforeSave = (
  q: Queryable,
  def: EntityDef,
  scope: RecordScope,
  write: {
    record: Readonly<Record<string, unknown>>;
    changed: Readonly<Record<string, unknown>>;
    id: number | null;
  },
) => Promise<void>;

/**
 * After a record was created or edited, in the same transaction: what other records follow from
 * it (a train's productions take its equipment). `record` is the record as saved, `changed` the
 * fields that were set, `id` null on create; `actor` writes what follows, audited as theirs.
 */
export type AfterSave = (
  q: Queryable,
  def: EntityDef,
  scope: RecordScope,
  write: {
    actor: Actor;
    record: EntityRecord;
    changed: Readonly<Record<string, unknown>>;
    id: number | null;
  },
) => Promise<void>;

function registry<Hook>() {
  const hooks = new Map<string, Map<string, Hook>>();
  return {
    add(entityKey: string, name: string, hook: Hook): void {
      const forEntity = hooks.get(entityKey) ?? new Map<string, Hook>();
      forEntity.set(name, hook);
      hooks.set(entityKey, forEntity);
    },
    of: (entityKey: string): Hook[] => [...(hooks.get(entityKey)?.values() ?? [])],
  };
}

const beforeArchive = registry<BeforeArchive>();
const beforeSave = registry<BeforeSave>();
const afterSave = registry<AfterSave>();

export function onBeforeArchive(entityKey: string, name: string, hook: BeforeArchive): void {
  beforeArchive.add(entityKey, name, hook);
}

export function onBeforeSave(entityKey: string, name: string, hook: BeforeSave): void {
  beforeSave.add(entityKey, name, hook);
}

export function onAfterSave(entityKey: string, name: string, hook: AfterSave): void {
  afterSave.add(entityKey, name, hook);
}

export async function runBeforeArchive(
  q: Queryable,
  def: EntityDef,
  scope: Scope,
  record: EntityRecord,
  options: ArchiveOptions,
): Promise<void> {
  for (const hook of beforeArchive.of(def.key)) await hook(q, def, scope, record, options);
}

export async function runBeforeSave(
  q: Queryable,
  def: EntityDef,
  scope: RecordScope,
  write: Parameters<BeforeSave>[3],
): Promise<void> {
  for (const hook of beforeSave.of(def.key)) await hook(q, def, scope, write);
}

export async function runAfterSave(
  q: Queryable,
  def: EntityDef,
  scope: RecordScope,
  write: Parameters<AfterSave>[3],
): Promise<void> {
  for (const hook of afterSave.of(def.key)) await hook(q, def, scope, write);
}

/** The changed values of an edit, old and new, as the audit row records them. */
export interface AuditChanges {
  oldValues: Record<string, unknown>;
  newValues: Record<string, unknown>;
}

/**
 * How a record's edits are written in the audit trail, where a field reads better as what
 * changed in it (a role's permission map as the actions granted or taken away).
 */
export type AuditValues = (changes: AuditChanges) => AuditChanges;

const auditValues = new Map<string, AuditValues>();

export function onAuditValues(entityKey: string, hook: AuditValues): void {
  auditValues.set(entityKey, hook);
}

export function auditValuesOf(def: EntityDef, changes: AuditChanges): AuditChanges {
  return auditValues.get(def.key)?.(changes) ?? changes;
}
