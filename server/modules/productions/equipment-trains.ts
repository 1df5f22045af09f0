import { equipmentTrainsDef, productionsDef } from '#core/entities/defs/index.ts';
import { validationError } from '#core/errors/errors.ts';
import type { Queryable } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import type { Scope } from '#server/entities/entity-store.ts';
import { onAfterSave, onBeforeArchive, onBeforeSave } from '#server/entities/archive-hooks.ts';
import { facilityScope } from '#server/entities/entity-scope.ts';
import { registerReadExtras } from '#server/entities/read-extras.ts';
import { updateEntity } from '#server/entities/entity-write.ts';
import { recordsInForce } from '#server/records/controlled-entities.ts';
import type { ApprovedContext } from '#server/records/controlled.ts';
import {
  applyInForce,
  entityTarget,
  registerStagedTarget,
} from '../change-assessments/staged-targets.ts';
import { equipmentAreas } from './production-area.service.ts';

/*
 * Equipment trains (issue 32): a production that names a train keeps the equipment of the
 * train's version in force in its own `equipment_ids`, in the train's order, audited on the
 * production. The train is a controlled record: an edit is a draft version that moves nothing;
 * its approval with signatures (21 CFR 11.50/11.70) carries the approved equipment to the
 * productions in the approval's transaction (`trainApproved`). Every reader of a production's
 * equipment (the limits input, protocols, coverage, the changeover decision, reads as of a moment
 * through the production's kept versions) therefore sees the approved train without a second
 * source of truth, and a production without a train is untouched (21 CFR 211.68/211.188: the
 * record says what equipment was used; 211.100(a): an unapproved change is not in force).
 */

interface TrainRow {
  id: number;
  name: string;
  equipment_ids: number[];
  archived_at: unknown;
}

const sameOrder = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

const idsOf = (value: unknown): number[] => (Array.isArray(value) ? value.map(Number) : []);

/** A train as its record stands, and its version in force (undefined before any approval). */
async function trainOf(
  q: Queryable,
  facilityId: number,
  id: number,
): Promise<{ row: TrainRow; inForce: TrainRow | undefined } | undefined> {
  const [row] = await q.query<TrainRow>(
    `select id, name, equipment_ids, archived_at from equipment_trains where facility_id = $1 and id = $2`,
    [facilityId, id],
  );
  if (!row) return undefined;
  const [approved] = await recordsInForce(q, equipmentTrainsDef, facilityId, [
    { id: row.id, name: row.name, equipmentIds: row.equipment_ids },
  ]);
  const inForce = approved && {
    ...row,
    name: String(approved.name),
    equipment_ids: idsOf(approved.equipmentIds),
  };
  return { row, inForce };
}

/** 422 on `trainId`: a production runs only on a train with a version in force. */
const notApproved = (name: string) =>
  validationError([
    {
      property: 'trainId',
      constraints: {
        approved: `The equipment train '${name}' has no approved version: approve it before a production runs on it`,
      },
    },
  ]);

/** The live productions on a train, named, for the messages that refuse a change. */
async function productionsOn(q: Queryable, facilityId: number, trainId: number) {
  return q.query<{ id: number; name: string; version: number; equipment_ids: number[] }>(
    `select id, name, version, equipment_ids from productions
      where facility_id = $1 and train_id = $2 and archived_at is null order by id`,
    [facilityId, trainId],
  );
}

/** A production takes its train's equipment, as an edit of its own with an audit row. */
async function followTrain(
  q: Queryable,
  actor: Actor,
  scope: Scope,
  change: {
    production: { id: number; version: number; equipment_ids: readonly number[] };
    items: readonly number[];
    reason: string;
  },
): Promise<void> {
  const { production, items, reason } = change;
  if (sameOrder(idsOf(production.equipment_ids), items)) return;
  await updateEntity(q, {
    actor,
    def: productionsDef,
    scope,
    id: production.id,
    edit: { equipmentIds: [...items] },
    version: production.version,
    reason,
  });
}

const stagedTrain = entityTarget(equipmentTrainsDef);

/** Registers the train's hooks and its shared area (once; again only replaces them). */
export function registerEquipmentTrains(): void {
  // A train's new version staged in a change assessment is put in force by its approval, and
  // its evaluation shows what that moves: the productions on the train follow it there too.
  registerStagedTarget(equipmentTrainsDef.key, {
    ...stagedTrain,
    async apply(tx, change, options) {
      if (change.op !== 'create' && change.op !== 'update')
        return stagedTrain.apply(tx, change, options);
      await applyInForce(tx, equipmentTrainsDef, change, options, trainApproved);
    },
  });

  // A production on a train uses the train's equipment, in its order: a different list would
  // make its limits disagree with the train the user chose.
  onBeforeSave(productionsDef.key, 'equipment-train', async (q, _def, scope, { record }) => {
    const inFacility = facilityScope(productionsDef, scope);
    if (!inFacility || typeof record.trainId !== 'number') return;
    const found = await trainOf(q, inFacility.facilityId, record.trainId);
    if (!found) return;
    const train = found.inForce;
    if (!train) throw notApproved(found.row.name);
    if (sameOrder(idsOf(record.equipmentIds), idsOf(train.equipment_ids))) return;
    throw validationError([
      {
        property: 'equipmentIds',
        constraints: {
          train: `A production on the equipment train '${train.name}' uses the train's equipment, in the train's order; change the train, or take the production off it`,
        },
      },
    ]);
  });

  // A production restored on a train whose equipment changed while it was archived takes the
  // train's equipment, audited as an edit; on an archived train it is not restored.
  onAfterSave(productionsDef.key, 'equipment-train', async (q, _def, scope, write) => {
    const inFacility = facilityScope(productionsDef, scope);
    const { record } = write;
    if (!inFacility || write.id === null || typeof record.trainId !== 'number') return;
    const found = await trainOf(q, inFacility.facilityId, record.trainId);
    if (!found) return;
    const train = found.inForce;
    if (!train) throw notApproved(found.row.name);
    if (train.archived_at !== null)
      throw validationError([
        {
          property: 'trainId',
          constraints: {
            archived: `Its equipment train '${train.name}' is archived: restore the train first, or take the production off it`,
          },
        },
      ]);
    await followTrain(q, write.actor, inFacility, {
      production: {
        id: write.id,
        version: record.version,
        equipment_ids: idsOf(record.equipmentIds),
      },
      items: idsOf(train.equipment_ids),
      reason: `The equipment of its train '${train.name}' changed while it was archived`,
    });
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

  // From the records as read, so that a read as of a moment sums the train's items of then.
  registerReadExtras(equipmentTrainsDef.key, async (q, facilityId, ids, records) => {
    const areas = await equipmentAreas(
      q,
      facilityId,
      records.map((train) => idsOf(train.equipmentIds)),
    );
    return new Map(ids.map((id, i) => [id, { sharedArea: areas[i] }]));
  });
}

/**
 * The approval of a train's version (its onApproved, in the signature's transaction, after the
 * version became Approved): its productions take the approved equipment, each audited as an
 * edit by the approver, so that the limits, protocols and coverage of a production move only
 * with a signed train (21 CFR 211.100(a)).
 */
export async function trainApproved(tx: Queryable, context: ApprovedContext): Promise<void> {
  const { actor, ref, content } = context;
  const scope = { planId: ref.planId, facilityId: ref.facilityId };
  const items = idsOf(content.equipmentIds);
  for (const production of await productionsOn(tx, ref.facilityId, ref.documentId))
    await followTrain(tx, actor, scope, {
      production,
      items,
      reason: `The equipment of its train '${String(content.name)}' changed`,
    });
}
