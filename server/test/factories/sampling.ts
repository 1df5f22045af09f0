import {
  ZCreateSamplingLocationsRequest,
  type ZSamplingLocationFields,
} from '#core/schemas/equipment-extras.schemas.ts';
import { ZCreateOperatorRequest } from '#core/schemas/operators.schemas.ts';
import type { z } from 'zod';
import type { Db } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import { createLocations } from '#server/modules/equipment-extras/sampling-locations.service.ts';
import { createOperator } from '#server/modules/operators/operators.service.ts';
import { testActor } from '../factories.ts';
import { uniqueName, type FactoryScope } from './entities.ts';

/*
 * What a run is sampled and cleaned with, through the services the module's own routes call:
 * sampling locations of an item (a type's swab area taken as the route takes it) and operators.
 */

/** The id of the facility's sampling type of that name (the seeded 'Swab', 'Rinse'…). */
export async function samplingTypeId(db: Db, facilityId: number, name: string): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `select id from sampling_types
      where facility_id = $1 and name = $2 and archived_at is null order by id limit 1`,
    [facilityId, name],
  );
  if (!row) throw new Error(`No sampling type ${name} in facility ${facilityId}`);
  return row.id;
}

/**
 * Locations of an item of equipment, as POST equipments/{id}/sampling-locations adds them (its
 * body's `data` and `reason`, all in one transaction, by `actor`); answers them in order.
 */
export function buildSamplingLocations(
  db: Db,
  scope: FactoryScope,
  equipmentId: number,
  data: z.input<typeof ZSamplingLocationFields>[],
  options: { actor?: Actor; reason?: string } = {},
) {
  const { actor = testActor, reason } = options;
  const body = ZCreateSamplingLocationsRequest.parse({ data, equipmentId, reason });
  const items = body.data.map((fields, i) => ({ fields, at: `data[${i}].` }));
  return db.transaction((tx) => createLocations(tx, actor, scope, equipmentId, items, body.reason));
}

/** An operator, as POST operator adds one: a badge of its own unless told. */
export function buildOperator(
  db: Db,
  scope: FactoryScope,
  overrides: Partial<z.input<typeof ZCreateOperatorRequest>> = {},
  actor: Actor = testActor,
) {
  const input = ZCreateOperatorRequest.parse({
    firstName: 'Olga',
    lastName: 'Op',
    operatorId: uniqueName('OP').replace(/\s/g, '-'),
    ...overrides,
  });
  return createOperator(db, { actor, ...scope }, input);
}
