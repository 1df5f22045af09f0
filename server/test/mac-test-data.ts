import {
  activesDef,
  equipmentDef,
  equipmentTrainsDef,
  productionsDef,
  productsDef,
} from '#core/entities/defs/index.ts';
import type { EntityDef } from '#core/entities/entity.ts';
import { DEFAULT_APPROVAL_STEPS } from '#core/schemas/signatures.schemas.ts';
import { adminActor } from '#server/test/factories/admin.ts';
import { buildEntity } from '#server/test/factories/entities.ts';
import { signIntoForce } from '#server/test/factories/signed-record.ts';
import type { TestServer } from '#server/test/test-server.ts';

export interface MacFacility {
  F: string;
  facilityId: number;
  line1: number;
  line2: number;
  /** Products A–D and equipment E1–E3 by name. */
  products: Record<'A' | 'B' | 'C' | 'D', number>;
  equipment: Record<'E1' | 'E2' | 'E3', number>;
  /** With `onTrains`: the equipment trains 'Train 1' (E1, E2) and 'Train 2' (E3) of the lines. */
  trains: { line1: number; line2: number } | null;
}

/**
 * A small facility whose matrix is known by hand: A and B share E1 and E2 on Line 1; C and D
 * share E3 on Line 2; nothing crosses the lines, so A → C has no cell. C's active has a PDE
 * far above its therapeutic dose, so every pair after C is flagged. The records are written
 * through the app's own write path (test factories), not one HTTP call each.
 */
export async function buildMacFacility(
  server: TestServer,
  facilityId: number,
  options: { onTrains?: boolean } = {},
): Promise<MacFacility> {
  const [f] = await server.db.query<{ plan_id: number }>(
    'select plan_id from facilities where id = $1',
    [facilityId],
  );
  const F = `/api/v2/plans/${f!.plan_id}/facilities/${facilityId}`;
  // Written by the administrator through the app's write path, as their POSTs would write them.
  const scope = { planId: f!.plan_id, facilityId };
  const admin = await adminActor(server.db);
  const create = async (def: EntityDef, values: Record<string, unknown>): Promise<number> =>
    (await buildEntity(server.db, scope, def, values, admin)).id;
  const alpha = await create(activesDef, {
    name: 'Alpha',
    pde: { value: 0.1, unit: 'mg' },
    therapeuticDose: { value: 10, unit: 'mg' },
    acceptableIntake: { value: 96, unit: 'ng' },
  });
  const beta = await create(activesDef, { name: 'Beta', pde: { value: 1, unit: 'ug' } });
  const gamma = await create(activesDef, {
    name: 'Gamma',
    pde: { value: 5, unit: 'mg' },
    therapeuticDose: { value: 1, unit: 'mg' },
  });
  const product = (name: string, activeId: number, mdd: number, mbs: number) =>
    create(productsDef, {
      name,
      maxDailyDose: { value: mdd, unit: 'mg' },
      minBatchSize: { value: mbs, unit: 'kg' },
      actives: [{ activeId, amount: { value: 10, unit: 'mg' } }],
    });
  const a = await product('A', alpha, 200, 50);
  const b = await product('B', beta, 400, 100);
  const c = await product('C', gamma, 100, 20);
  const d = await product('D', beta, 300, 80);
  const e1 = await create(equipmentDef, { name: 'E1', surfaceArea: { value: 12.5, unit: 'sqm' } });
  const e2 = await create(equipmentDef, { name: 'E2', surfaceArea: { value: 5000, unit: 'sqcm' } });
  const e3 = await create(equipmentDef, { name: 'E3', surfaceArea: { value: 1, unit: 'sqm' } });
  // A train is in force once approved with signatures (issue 32): only then may a line run on it.
  const train = async (name: string, equipmentIds: number[]) => {
    if (!options.onTrains) return null;
    const id = await create(equipmentTrainsDef, { name, equipmentIds });
    await signIntoForce(server, scope, { documentType: 'EquipmentTrain', documentId: id });
    return id;
  };
  const trains = { line1: await train('Train 1', [e1, e2]), line2: await train('Train 2', [e3]) };
  const line1 = await create(productionsDef, {
    name: 'Line 1',
    equipmentIds: [e1, e2],
    productIds: [a, b],
    ...(trains.line1 === null ? {} : { trainId: trains.line1 }),
  });
  const line2 = await create(productionsDef, {
    name: 'Line 2',
    equipmentIds: [e3],
    productIds: [c, d],
    ...(trains.line2 === null ? {} : { trainId: trains.line2 }),
  });
  return {
    F,
    facilityId,
    line1,
    line2,
    products: { A: a, B: b, C: c, D: d },
    equipment: { E1: e1, E2: e2, E3: e3 },
    trains:
      trains.line1 === null || trains.line2 === null
        ? null
        : { line1: trains.line1, line2: trains.line2 },
  };
}

/**
 * A MAC formula whose version 1 was written straight into the database by the schema's owner,
 * never checked by a save (as one saved before the units check existed, or written by other
 * means). `submitted`: waiting for its approval under the default policy (one Approver
 * signature), as a Submit would have left it.
 */
export async function uncheckedFormula(
  server: TestServer,
  facilityId: number,
  { name, expression, submitted }: { name: string; expression: string; submitted: boolean },
): Promise<number> {
  const owner = await server.db.owner();
  return owner.transaction(async (tx) => {
    const [row] = await tx.query<{ id: number }>(
      `insert into mac_formulas (facility_id, name, expression) values ($1, $2, $3) returning id`,
      [facilityId, name, expression],
    );
    await tx.query(
      `insert into controlled_versions (facility_id, document_type, document_id, version_number,
         status, signature_state, content, title, approval_steps, allow_self_approval,
         submitted_at)
       values ($1, 'MacFormula', $2, 1, $3, $4, $5, $6, $7, $8, $9)`,
      [
        facilityId,
        row!.id,
        submitted ? 'BeingApproved' : 'BeingBuilt',
        submitted ? 'PendingApproval' : null,
        JSON.stringify({ name, expression, description: null }),
        name,
        submitted ? JSON.stringify(DEFAULT_APPROVAL_STEPS) : null,
        submitted ? false : null,
        submitted ? new Date().toISOString() : null,
      ],
    );
    return row!.id;
  });
}
