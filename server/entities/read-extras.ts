import type { EntityDef } from '#core/entities/entity.ts';
import type { Queryable } from '../db/db.ts';

/*
 * What another module adds to every read of a declared record (the moc record's change
 * assessments): the declaration names the members and their shapes (`EntityDef.readExtras`),
 * the module that owns them registers how they are read. One query per page of records.
 */

export type ReadExtras = (
  q: Queryable,
  facilityId: number,
  ids: readonly number[],
  /** The records as read (as of a moment, on such a read), in the order of `ids`. */
  records: readonly Readonly<Record<string, unknown>>[],
) => Promise<Map<number, Record<string, unknown>>>;

const registry = new Map<string, ReadExtras>();

/** Declares how the extra members of a declaration's reads are read (again replaces). */
export function registerReadExtras(defKey: string, read: ReadExtras): void {
  registry.set(defKey, read);
}

/** The records with the members their declaration's readExtras name (empty until registered). */
export async function withReadExtras<T extends { id: number }>(
  q: Queryable,
  def: EntityDef,
  facilityId: number,
  records: T[],
): Promise<T[]> {
  if (!def.readExtras || records.length === 0) return records;
  const read = registry.get(def.key);
  const found = read
    ? await read(
        q,
        facilityId,
        records.map((r) => r.id),
        records,
      )
    : new Map();
  const empty = Object.fromEntries(Object.keys(def.readExtras).map((name) => [name, []]));
  return records.map((r) => ({ ...r, ...empty, ...(found.get(r.id) ?? {}) }));
}
