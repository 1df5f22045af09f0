import { createSchema, type EntityDef } from '#core/entities/entity.ts';
import {
  activesDef,
  equipmentDef,
  productionsDef,
  productsDef,
  RECORD_DEFS,
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

/**
 * A function that writes a record of the facility as `POST {F}/{path}` of the declared records
 * does (buildEntity, by `actor`) and answers its id: for test data set up record by record, in
 * place of one HTTP call each. A path that is not a declared record's is refused.
 */
export function recordFactory(db: Db, scope: FactoryScope, actor: Actor = testActor) {
  return async (path: string, values: unknown): Promise<number> => {
    const def = RECORD_DEFS.find((d) => d.path === path);
    if (!def) throw new Error(`No declared record is written at ${path}`);
    // Read by the declaration's schema first, as the route reads its body.
    return (await buildEntity(db, scope, def, values as Record<string, unknown>, actor)).id;
  };
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
