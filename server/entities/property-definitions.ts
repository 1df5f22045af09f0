import { AppError } from '#core/errors/errors.ts';
import {
  ZPropertyDefinition,
  type PropertyTarget,
  type TPropertyDefinition,
} from '#core/schemas/additional-properties.schemas.ts';
import type { Queryable } from '#server/db/db.ts';

// Read here, below the modules, because every entity save checks its values against them
// (entity-properties.ts); the additional-properties module writes them.

export interface FacilityScope {
  plan: number;
  facility: number;
}

export type Definitions = Record<PropertyTarget, TPropertyDefinition[]>;

/**
 * The definitions live in facilities.additional_properties, the document the facilities list
 * already returns, so the list and these routes can never disagree. Changes lock the facility
 * row, so two administrators never overwrite each other's definitions.
 */
export async function readAll(
  q: Queryable,
  scope: FacilityScope,
  lock: boolean,
): Promise<Definitions> {
  const [row] = await q.query<{ additional_properties: Partial<Definitions> | null }>(
    `select additional_properties from facilities where id = $1 and plan_id = $2 ${lock ? 'for update' : ''}`,
    [scope.facility, scope.plan],
  );
  if (!row) throw new AppError('NotFoundError', `Facility ${scope.facility} was not found`);
  const stored = row.additional_properties ?? {};
  const parse = (list: unknown): TPropertyDefinition[] =>
    (Array.isArray(list) ? list : []).flatMap((item) => {
      const parsed = ZPropertyDefinition.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
  return {
    api: parse(stored.api),
    intermediate: parse(stored.intermediate),
    product: parse(stored.product),
    production: parse(stored.production),
  };
}

export async function listDefinitions(
  q: Queryable,
  scope: FacilityScope,
  target: PropertyTarget,
): Promise<TPropertyDefinition[]> {
  return (await readAll(q, scope, false))[target];
}

/** The definitions an entity's values are checked against (inside the caller's transaction). */
export async function definitionsFor(
  q: Queryable,
  facilityId: number,
  target: PropertyTarget,
): Promise<TPropertyDefinition[]> {
  const [row] = await q.query<{ plan_id: number }>('select plan_id from facilities where id = $1', [
    facilityId,
  ]);
  if (!row) throw new AppError('NotFoundError', `Facility ${facilityId} was not found`);
  return (await readAll(q, { plan: row.plan_id, facility: facilityId }, false))[target];
}
