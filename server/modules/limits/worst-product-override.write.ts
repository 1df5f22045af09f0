import { equipmentTrainsDef } from '#core/entities/defs/index.ts';
import { AppError, validationError } from '#core/errors/errors.ts';
import { decideOverride } from '#core/limits/worst-product-override.ts';
import type {
  TEquipmentWorstProduct,
  TTrainWorstProduct,
  TWorstProductOverrideRequest,
} from '#core/schemas/worst-products.schemas.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import { recordsInForce } from '#server/records/controlled-entities.ts';
import { writeActSignature } from '#server/records/signature-write.ts';
import { verifySigner } from '../auth/signing-password.ts';
import type { KeyConfig } from '../active-directory/active-directory.settings.ts';
import { assertMaySignAct } from '../signatures/signatures.service.ts';
import { overrideContent, WORST_OVERRIDE_MEANING } from './worst-product-overrides.ts';
import { equipmentWorstProducts, trainWorstProducts } from './worst-products.service.ts';

/*
 * A site's choice of another worst-case product for a train or an item of equipment (issue 32),
 * a production's keyed by its equipment-train record (signature `TrainWorstProductOverride`, its
 * `documentId` the train's id):
 * signed by a signer who re-enters their password (21 CFR 11.200(a)) and holds the right to sign
 * (ApprovalPolicy Sign, 11.200), with its justification (EU GMP Annex 15 §10.12), never loosening
 * the limit the group is validated against (decideOverride), audited with what it replaced.
 */

export type Target =
  { kind: 'train'; productionId: number } | { kind: 'equipment'; equipmentId: number };

interface Signing {
  config: KeyConfig;
  key: () => Promise<Buffer>;
}

interface Scope {
  planId: number;
  facilityId: number;
}

// A train's overrides have a document type of their own: 'WorstProductOverride' keeps those
// signed on a production, whose ids a train's may equal (core signatures.schemas.ts).
const documentTypeOf = (t: Target) =>
  t.kind === 'train'
    ? ('TrainWorstProductOverride' as const)
    : ('EquipmentWiseWorstProduct' as const);

/** What an override is keyed by: the production's equipment train, or the item. */
interface Key {
  column: 'train_id' | 'equipment_id';
  id: number;
  /** The train's equipment in order (what a train's override is signed for); null for an item. */
  trainEquipmentIds: number[] | null;
}

/**
 * Locks the production and its train, or the item (so the count of its signatures holds); 404
 * if none, 422 on `trainId` for a production on no train: an override follows a train.
 */
async function lockTarget(tx: Queryable, facilityId: number, target: Target): Promise<Key> {
  if (target.kind === 'equipment') {
    const [row] = await tx.query<{ id: number }>(
      `select id from equipment where facility_id = $1 and id = $2 and archived_at is null
          for update`,
      [facilityId, target.equipmentId],
    );
    if (!row) throw new AppError('NotFoundError', 'The equipment was not found');
    return { column: 'equipment_id', id: row.id, trainEquipmentIds: null };
  }
  const [production] = await tx.query<{ train_id: number | null }>(
    `select train_id from productions where facility_id = $1 and id = $2 and archived_at is null
        for update`,
    [facilityId, target.productionId],
  );
  if (!production) throw new AppError('NotFoundError', 'The production was not found');
  // The train's version in force: the override is signed for the equipment approved then.
  const [train] =
    production.train_id === null
      ? []
      : await recordsInForce(
          tx,
          equipmentTrainsDef,
          facilityId,
          await tx.query<{ id: number; equipmentIds: number[] }>(
            `select id, equipment_ids as "equipmentIds" from equipment_trains
              where facility_id = $1 and id = $2 and archived_at is null for update`,
            [facilityId, production.train_id],
          ),
        );
  if (!train)
    throw validationError([
      {
        property: 'trainId',
        constraints: {
          train:
            'Put the production on an equipment train first: a worst-case override follows the train',
        },
      },
    ]);
  return { column: 'train_id', id: train.id, trainEquipmentIds: train.equipmentIds };
}

/** The target's computed worst case and the override in force, as the GET routes answer them. */
async function currentOf(
  tx: Queryable,
  facilityId: number,
  target: Target,
): Promise<TTrainWorstProduct | TEquipmentWorstProduct> {
  const found =
    target.kind === 'train'
      ? (await trainWorstProducts(tx, facilityId)).trains.find(
          (t) => t.productionId === target.productionId,
        )
      : (await equipmentWorstProducts(tx, facilityId)).equipment.find(
          (e) => e.equipmentId === target.equipmentId,
        );
  if (!found) throw new AppError('NotFoundError');
  return found;
}

/** The override in force must be the one the caller saw: none to add, the one named otherwise. */
function checkInForce(current: { override: { id: number } | null }, named: number | undefined) {
  const inForce = current.override?.id;
  if (inForce === named) return;
  throw new AppError(
    'VersionConflictError',
    inForce === undefined
      ? 'No override is in force any more: reload'
      : 'Another override is in force now: reload and review it first',
  );
}

async function endOverride(tx: Queryable, actor: Actor, id: number, reason: string) {
  await tx.query(
    `update worst_product_overrides set ended_at = now(), ended_by = $2, end_reason = $3
      where id = $1`,
    [id, actor.userId, reason],
  );
}

/**
 * POST (add, `replaces` absent) or PUT (replace the override in force) of a target's override:
 * refused with a 422 on `productId` for a product not of the group, the computed worst itself,
 * or one whose limit is less strict unless the computed limit is kept.
 */
export async function signWorstOverride(
  db: Db,
  signing: Signing,
  actor: Actor,
  scope: Scope,
  target: Target,
  body: TWorstProductOverrideRequest,
  mode: 'add' | 'replace',
): Promise<TTrainWorstProduct | TEquipmentWorstProduct> {
  // Add and Modify are separate rights: a POST never replaces, a PUT always names what it replaces.
  if ((mode === 'add') !== (body.replaces === undefined))
    throw validationError([
      {
        property: 'replaces',
        constraints: {
          mode:
            mode === 'add'
              ? 'An override in force is replaced with PUT'
              : 'Name the override in force that this one replaces',
        },
      },
    ]);
  await verifySigner(db, signing.config, actor, actor.userId!, body);
  const signingKey = await signing.key();
  await db.transaction(async (tx) => {
    const key = await lockTarget(tx, scope.facilityId, target);
    const current = await currentOf(tx, scope.facilityId, target);
    checkInForce(current, body.replaces);
    const chosen = current.products.find((p) => p.id === body.productId);
    if (!chosen)
      throw validationError([
        {
          property: 'productId',
          constraints: {
            group:
              target.kind === 'train'
                ? 'Choose a product made on this train'
                : 'Choose a product made on this equipment',
          },
        },
      ]);
    await assertMaySignAct(tx, actor.userId!, scope.facilityId, 'A worst-case override');
    const { computed } = current;
    const decision = decideOverride({
      computed: { product: computed.product ?? '', lowestMaco: computed.lowestMaco },
      chosen: { product: chosen.name, lowestMaco: chosen.lowestMaco },
      keepComputedLimit: body.keepComputedLimit,
    });
    if (!decision.allowed)
      throw validationError([{ property: 'productId', constraints: { limit: decision.message } }]);
    const kept = {
      production_id: null,
      train_id: key.column === 'train_id' ? key.id : null,
      train_equipment_ids: key.trainEquipmentIds,
      equipment_id: key.column === 'equipment_id' ? key.id : null,
      computed_product_id: computed.productId,
      computed_product: computed.product,
      computed_lowest_maco: computed.lowestMaco,
      product_id: chosen.id,
      product: chosen.name,
      lowest_maco: chosen.lowestMaco,
      keep_computed_limit: body.keepComputedLimit,
      group_limit: decision.limit,
      group_limit_product: decision.limitProduct,
      justification: body.justification,
    };
    const content = overrideContent(kept);
    const signature = await writeActSignature(
      tx,
      actor,
      signingKey,
      scope,
      {
        documentType: documentTypeOf(target),
        documentId: key.id,
        meaning: WORST_OVERRIDE_MEANING,
        content,
        reason: body.reason,
      },
      content,
    );
    // The one in force ends first: one override in force per target (a unique index).
    if (current.override) await endOverride(tx, actor, current.override.id, body.reason);
    const [row] = await tx.query<{ id: number }>(
      `insert into worst_product_overrides (facility_id, train_id, train_equipment_ids,
         equipment_id, computed_product_id, computed_product, computed_lowest_maco, product_id,
         product, lowest_maco, keep_computed_limit, group_limit, group_limit_product,
         justification, signature_id)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) returning id`,
      [
        scope.facilityId,
        kept.train_id,
        kept.train_equipment_ids,
        kept.equipment_id,
        kept.computed_product_id,
        kept.computed_product,
        kept.computed_lowest_maco,
        kept.product_id,
        kept.product,
        kept.lowest_maco,
        kept.keep_computed_limit,
        kept.group_limit,
        kept.group_limit_product,
        kept.justification,
        signature.id,
      ],
    );
    await writeAudit(tx, actor, {
      ...scope,
      domain: documentTypeOf(target),
      action: 'Override',
      entityId: key.id,
      reason: body.reason,
      oldValues: current.override
        ? { override: current.override.id, product: current.override.product }
        : { override: null, product: computed.product },
      newValues: { override: row!.id, signature: signature.id, ...content },
    });
  });
  return currentOf(db, scope.facilityId, target);
}

/** DELETE: the override in force withdrawn with a reason; the computed worst case applies again. */
export async function withdrawWorstOverride(
  db: Db,
  actor: Actor,
  scope: Scope,
  target: Target,
  query: { overrideId: number; reason: string },
): Promise<TTrainWorstProduct | TEquipmentWorstProduct> {
  await db.transaction(async (tx) => {
    const key = await lockTarget(tx, scope.facilityId, target);
    const [row] = await tx.query<{ id: number; product: string }>(
      `select id, product from worst_product_overrides
        where facility_id = $1 and ${key.column} = $2 and ended_at is null`,
      [scope.facilityId, key.id],
    );
    checkInForce({ override: row ?? null }, query.overrideId);
    await endOverride(tx, actor, row!.id, query.reason);
    await writeAudit(tx, actor, {
      ...scope,
      domain: documentTypeOf(target),
      action: 'Withdraw',
      entityId: key.id,
      reason: query.reason,
      oldValues: { override: row!.id, product: row!.product },
      newValues: { override: null },
    });
  });
  return currentOf(db, scope.facilityId, target);
}
