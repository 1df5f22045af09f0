import type { EntityDef } from '../../core/entities/entity.ts';
import type { Queryable } from '../db/db.ts';
import type { EntityRecord, Scope } from './entity-store.ts';

/** What the archive request says beyond its reason. */
export interface ArchiveOptions {
  /** The caller has seen what archiving changes (where the record is used) and goes ahead. */
  confirmImpact?: boolean | undefined;
}

/**
 * Runs inside the archive's transaction, on the locked record, before it is archived; throws
 * (a catalogue error) to refuse. Modules that depend on an entity register one, so that the
 * generic archive route stays the same for every entity.
 */
export type BeforeArchive = (
  q: Queryable,
  def: EntityDef,
  scope: Scope,
  record: EntityRecord,
  options: ArchiveOptions,
) => Promise<void>;

const hooks = new Map<string, Map<string, BeforeArchive>>();

/** Registers a hook for an entity under a name; registering the same name again replaces it. */
export function onBeforeArchive(entityKey: string, name: string, hook: BeforeArchive): void {
  const forEntity = hooks.get(entityKey) ?? new Map<string, BeforeArchive>();
  forEntity.set(name, hook);
  hooks.set(entityKey, forEntity);
}

export async function runBeforeArchive(
  q: Queryable,
  def: EntityDef,
  scope: Scope,
  record: EntityRecord,
  options: ArchiveOptions,
): Promise<void> {
  for (const hook of hooks.get(def.key)?.values() ?? []) await hook(q, def, scope, record, options);
}
