import { AppError, validationError, type PropertyError } from '#core/errors/errors.ts';
import { recordProblems, type EntityDef } from '#core/entities/entity.ts';
import { columnOf, type FieldDef } from '#core/entities/field.ts';
import { entityDef } from '#core/entities/defs/index.ts';
import { lowerLabel } from '#core/entities/labels.ts';
import type { Queryable } from '../db/db.ts';
import { ownerColumn, ownerId, uniqueUnder, type RecordScope } from './entity-scope.ts';

/**
 * What a reference to records that are gone says: the kind of record, never the ids a person
 * did not type (issue 30); the property path already says which entry it is.
 */
function missingText(target: EntityDef, count: number): string {
  const where = `in this ${target.scope === 'plan' ? 'plan' : 'facility'}`;
  return count === 1
    ? `No such ${lowerLabel(target.label)} ${where} (archived or removed)`
    : `${count} of the chosen ${lowerLabel(target.pluralLabel)} are not ${where} (archived or removed)`;
}

/** References must name live rows of the same facility (or plan, for plan-scoped targets). */
export async function checkReferences(
  q: Queryable,
  def: EntityDef,
  scope: RecordScope,
  values: Record<string, unknown>,
) {
  const problems: PropertyError[] = [];
  const check = async (field: FieldDef, value: unknown, path: string) => {
    if (field.kind === 'reference' && value !== null && value !== undefined) {
      const target = entityDef(field.entity);
      const ids = (Array.isArray(value) ? value : [value]) as number[];
      if (ids.length === 0) return;
      const found = await q.query<{ id: number }>(
        `select id from ${target.table} where ${ownerColumn(target)} = $1 and id = any($2::int[]) and archived_at is null`,
        [ownerId(target, scope), ids],
      );
      const known = new Set(found.map((r) => r.id));
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length > 0) {
        problems.push({
          property: path,
          constraints: {
            reference: missingText(target, missing.length),
          },
        });
      }
      if (Array.isArray(value) && new Set(ids).size !== ids.length) {
        problems.push({ property: path, constraints: { unique: 'lists the same item twice' } });
      }
    }
    if (field.kind === 'list' && Array.isArray(value)) {
      for (const [index, item] of value.entries()) {
        for (const sub of field.of)
          await check(
            sub,
            (item as Record<string, unknown>)[sub.name],
            `${path}[${index}].${sub.name}`,
          );
      }
    }
  };
  for (const field of def.fields)
    if (field.name in values) await check(field, values[field.name], field.name);
  if (problems.length > 0) throw validationError(problems);
}

/** The declaration's rules across fields, on the record as it would be saved. */
export function checkRecord(def: EntityDef, record: Readonly<Record<string, unknown>>): void {
  const problems = recordProblems(def, record);
  if (problems.length > 0) throw validationError(problems);
}

/**
 * A duplicate of a unique field in the record's scope (under its parent, for child records):
 * DuplicateEntryError, or ArchivedEntryError when the other one is archived. `record` is the
 * whole record as it would be saved, `values` the fields being set.
 */
export async function checkUnique(
  q: Queryable,
  def: EntityDef,
  scope: RecordScope,
  values: Record<string, unknown>,
  exceptId: number | null,
  record: Readonly<Record<string, unknown>> = values,
) {
  const parent = uniqueUnder(def);
  const parentId = parent && typeof def.scope === 'object' ? record[def.scope.parent] : null;
  for (const name of def.unique) {
    const value = values[name];
    if (typeof value !== 'string') continue;
    const [other] = await q.query<{ id: number; archived: boolean }>(
      `select id, archived_at is not null as archived from ${def.table}
        where ${ownerColumn(def)} = $1 and lower(${columnOf({ name })}) = lower($2) and ($3::int is null or id <> $3)
          ${parent ? `and ${parent} is not distinct from $4::int` : ''}`,
      parent
        ? [ownerId(def, scope), value, exceptId, (parentId ?? null) as number | null]
        : [ownerId(def, scope), value, exceptId],
    );
    if (!other) continue;
    const errors = [
      {
        property: name,
        constraints: { unique: `${def.label} with ${name} '${value}' already exists` },
      },
    ];
    if (other.archived) {
      throw new AppError(
        'ArchivedEntryError',
        `Data Archived: a ${def.label.toLowerCase()} with ${name} '${value}' is archived. Restore it from the archived list, or change the ${name} to create a new one.`,
        { errors },
      );
    }
    throw new AppError(
      'DuplicateEntryError',
      `${def.label} with ${name} '${value}' already exists`,
      { errors },
    );
  }
}
