import { equipmentTrainsDef, productionsDef } from '#core/entities/defs/index.ts';
import { validationError } from '#core/errors/errors.ts';
import type { Queryable } from '#server/db/db.ts';
import { onAfterSave, onBeforeArchive, onBeforeSave } from '#server/entities/archive-hooks.ts';
import { facilityScope } from '#server/entities/entity-scope.ts';
import { registerReadExtras } from '#server/entities/read-extras.ts';
import { updateEntity } from '#server/entities/entity-write.ts';
import { equipmentAreas } from './production-area.service.ts';

/*
 * Equipment trains (issue 32): a production that names a train keeps the train's equipment in
 * its own `equipment_ids`, in the train's order, written in the same transaction as the train
 * and audited on the production. Every reader of a production's equipment (the limits input,
 * protocols, coverage, the changeover decision, reads as of a moment through the production's
 * kept versions) therefore sees the train without a second source of truth, and a production
 * without a train is untouched (21 CFR 211.68/211.188: the record says what equipment was used).
 */

interface TrainRow {
  id: number;
  name: string;
  equipment_ids: number[];
}

const sameOrder = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

const idsOf = (value: unknown): number[] => (Array.isArray(value) ? value.map(Number) : []);

async function trainOf(
  q: Queryable,
  facilityId: number,
  id: number,
): Promise<TrainRow | undefined> {
  const [row] = await q.query<TrainRow>(
    `select id, name, equipment_ids from equipment_trains where facility_id = $1 and id = $2`,
    [facilityId, id],
  );
  return row;
}

/** The live productions on a train, named, for the messages that refuse a change. */
async function productionsOn(q: Queryable, facilityId: number, trainId: number) {
  return q.query<{ id: number; name: string; version: number; equipment_ids: number[] }>(
    `select id, name, version, equipment_ids from productions
      where facility_id = $1 and train_id = $2 and archived_at is null order by id`,
    [facilityId, trainId],
  );
}

/** Registers the train's hooks and its shared area (once; again only replaces them). */
export function registerEquipmentTrains(): void {
  // A production on a train uses the train's equipment, in its order: a different list would
  // make its limits disagree with the train the user chose.
  onBeforeSave(productionsDef.key, 'equipment-train', async (q, _def, scope, { record }) => {
    const inFacility = facilityScope(productionsDef, scope);
    if (!inFacility || typeof record.trainId !== 'number') return;
    const train = await trainOf(q, inFacility.facilityId, record.trainId);
    if (!train || sameOrder(idsOf(record.equipmentIds), idsOf(train.equipment_ids))) return;
    throw validationError([
      {
        property: 'equipmentIds',
        constraints: {
          train: `A production on the equipment train '${train.name}' uses the train's equipment, in the train's order; change the train, or take the production off it`,
        },
      },
    ]);
  });

  // An edit of the train's equipment is carried to its productions, each audited as an edit.
  onAfterSave(equipmentTrainsDef.key, 'productions', async (q, _def, scope, write) => {
    const inFacility = facilityScope(equipmentTrainsDef, scope);
    if (!inFacility || write.id === null || !('equipmentIds' in write.changed)) return;
    const items = idsOf(write.record.equipmentIds);
    for (const production of await productionsOn(q, inFacility.facilityId, write.id)) {
      if (sameOrder(idsOf(production.equipment_ids), items)) continue;
      await updateEntity(q, {
        actor: write.actor,
        def: productionsDef,
        scope: inFacility,
        id: production.id,
        edit: { equipmentIds: items },
        version: production.version,
        reason: `The equipment of its train '${String(write.record.name)}' changed`,
      });
    }
  });

  // A train a live production runs on stays: archiving it would leave the production naming a
  // train nobody can open.
  onBeforeArchive(equipmentTrainsDef.key, 'used-by-productions', async (q, _def, scope, record) => {
    const used = await productionsOn(q, scope.facilityId, record.id);
    if (used.length === 0) return;
    const names = used.map((p) => `'${p.name}'`).join(', ');
    throw validationError([
      {
        property: 'id',
        constraints: {
          inUse: `This equipment train is used by ${used.length === 1 ? 'the production' : 'the productions'} ${names}; take ${used.length === 1 ? 'it' : 'them'} off the train first`,
        },
      },
    ]);
  });

  registerReadExtras(equipmentTrainsDef.key, async (q, facilityId, ids) => {
    const trains = await q.query<{ id: number; equipment_ids: number[] }>(
      `select id, equipment_ids from equipment_trains where facility_id = $1 and id = any($2::int[])`,
      [facilityId, ids],
    );
    const areas = await equipmentAreas(
      q,
      facilityId,
      trains.map((t) => idsOf(t.equipment_ids)),
    );
    return new Map(trains.map((t, i) => [Number(t.id), { sharedArea: areas[i] }]));
  });
}
