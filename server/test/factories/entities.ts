import { createSchema, type EntityDef } from '#core/entities/entity.ts';
import {
  activesDef,
  equipmentDef,
  productionsDef,
  productsDef,
} from '#core/entities/defs/index.ts';
import type { Db } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import type { EntityRecord } from '#server/entities/entity-store.ts';
import { createEntity } from '#server/entities/entity-write.ts';
import { testActor } from '../factories.ts';

/*
 * Master data written through the app's own write path (createEntity: checks, version 1, history
 * row, audit row), as a POST of the record writes it, without a server round trip per record.
 */

/** The plan and facility a factory writes in. */
export interface FactoryScope {
  planId: number;
  facilityId: number;
}

let sequence = 0;

/** A name no other call of this process has given: `${prefix} ${pid}-${n}`. */
export function uniqueName(prefix: string): string {
  sequence += 1;
  return `${prefix} ${process.pid}-${sequence}`;
}

/**
 * Any declared record of a facility: the values read as the create route reads its body (the
 * declaration's schema, defaults and all), then written by createEntity in a transaction of its
 * own, by `actor` (testActor unless given).
 */
export async function buildEntity(
  db: Db,
  scope: FactoryScope,
  def: EntityDef,
  values: Record<string, unknown>,
  actor: Actor = testActor,
): Promise<EntityRecord> {
  const parsed = createSchema(def).parse(values) as Record<string, unknown>;
  return db.transaction((tx) => createEntity(tx, { actor, def, scope, values: parsed }));
}

/** An active with a PDE of 0.1 mg unless told otherwise. */
export function buildActive(db: Db, scope: FactoryScope, overrides: Record<string, unknown> = {}) {
  return buildEntity(db, scope, activesDef, {
    name: uniqueName('Active'),
    pde: { value: 0.1, unit: 'mg' },
    ...overrides,
  });
}

/**
 * A product: 1000 mg largest daily dose, 100 kg minimum batch; with `actives` as given, or else
 * one active of its own built for it (10 mg per unit).
 */
export async function buildProduct(
  db: Db,
  scope: FactoryScope,
  overrides: Record<string, unknown> = {},
) {
  const actives = overrides.actives ?? [
    { activeId: (await buildActive(db, scope)).id, amount: { value: 10, unit: 'mg' } },
  ];
  return buildEntity(db, scope, productsDef, {
    name: uniqueName('Product'),
    maxDailyDose: { value: 1000, unit: 'mg' },
    minBatchSize: { value: 100, unit: 'kg' },
    ...overrides,
    actives,
  });
}

/** Equipment of 1 m² unless told otherwise. */
export function buildEquipment(
  db: Db,
  scope: FactoryScope,
  overrides: Record<string, unknown> = {},
) {
  return buildEntity(db, scope, equipmentDef, {
    name: uniqueName('Equipment'),
    surfaceArea: { value: 1, unit: 'sqm' },
    ...overrides,
  });
}

/** A production (train): the given equipment and products, none unless told. */
export function buildProduction(
  db: Db,
  scope: FactoryScope,
  overrides: Record<string, unknown> = {},
) {
  return buildEntity(db, scope, productionsDef, { name: uniqueName('Line'), ...overrides });
}
