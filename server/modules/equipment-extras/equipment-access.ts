import { AppError } from '#core/errors/errors.ts';
import { equipmentDef } from '#core/entities/defs/index.ts';
import type { Queryable } from '#server/db/db.ts';
import { getEntity, type EntityRecord } from '#server/entities/entity-store.ts';

/** The item of the path, in the facility of the path (NotFoundError otherwise). */
export async function equipmentOf(
  q: Queryable,
  facilityId: number,
  equipmentId: number,
): Promise<EntityRecord> {
  return getEntity(q, equipmentDef, facilityId, equipmentId);
}

/** Things are added to live equipment only; archived equipment is restored first. */
export async function liveEquipmentOf(
  q: Queryable,
  facilityId: number,
  equipmentId: number,
): Promise<EntityRecord> {
  const equipment = await equipmentOf(q, facilityId, equipmentId);
  if (equipment.archivedAt)
    throw new AppError(
      'ArchivedEntryError',
      'Data Archived: this equipment is archived. Restore it from the archived list before changing it.',
    );
  return equipment;
}

export function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
}
