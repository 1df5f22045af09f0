import { z } from 'zod';
import { recordSchema } from '#core/entities/entity.ts';
import { equipmentDef, equipmentGroupsDef, productionsDef } from '#core/entities/defs/index.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZListQuery, type TListQuery } from '#core/schemas/common.schemas.ts';
import {
  ZEquipmentParams,
  ZGroupMap,
  ZGroupMapRequest,
  ZProductionDropdownItem,
  ZProductionMap,
  ZProductionMapRequest,
} from '#core/schemas/equipment-extras.schemas.ts';
import type { Db } from '#server/db/db.ts';
import { getEntity, listEntities, type ListOptions } from '#server/entities/entity-store.ts';
import { updateEntity } from '#server/entities/entity-write.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';

// An item is grouped when a live equipment group lists it.
const IN_A_GROUP = `exists (select 1 from equipment_groups g
  where g.facility_id = equipment.facility_id and g.archived_at is null
    and equipment.id = any(g.equipment_ids))`;

/** Spec §7 equipment filters: the gaps a validation engineer closes before limits are complete. */
const FILTERS = {
  'no-group': {
    where: `not ${IN_A_GROUP}`,
    summary: 'Equipment in no equipment group',
  },
  'no-cpn': {
    where: `not exists (select 1 from sampling_locations l
      where l.equipment_id = equipment.id and l.archived_at is null)`,
    summary: 'Equipment without a sampling location (no critical sampling point yet)',
  },
  'no-grade': { where: 'equipment.room_grade is null', summary: 'Equipment without a room grade' },
} as const;

/** The facility's live equipment that also meets `filter` (see ListOptions.filter). */
function listEquipment(
  db: Db,
  facilityId: number,
  query: TListQuery,
  filter: NonNullable<ListOptions['filter']>,
) {
  return listEntities(db, equipmentDef, facilityId, query, false, { filter });
}

const ZEquipmentPage = z.object({
  data: z.array(recordSchema(equipmentDef)),
  total: z.number().int(),
  pageNumber: z.number().int(),
  pageLimit: z.number().int(),
});

/**
 * Equipment filters, the equipment of a group and its mapping, a production's mapping to
 * equipment and products, and the productions with ungrouped equipment.
 */
export function registerEquipmentMappingRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  const scopeOf = (p: { plan: number; facility: number }) => ({
    planId: p.plan,
    facilityId: p.facility,
  });

  for (const [name, filter] of Object.entries(FILTERS)) {
    r.get(
      `${F}/equipments/${name}`,
      {
        preHandler: permit('Equipment', 'Get'),
        schema: {
          tags: ['Equipment'],
          summary: `${filter.summary}, a page at a time`,
          params: ZFacilityParams,
          querystring: ZListQuery,
          response: { 200: ZEquipmentPage },
        },
      },
      async (request) =>
        listEquipment(db, request.params.facility, request.query, () => filter.where),
    );
  }

  r.get(
    `${F}/equipment_groups/:id/equipments`,
    {
      preHandler: permit('EquipmentGroup', 'Get'),
      schema: {
        tags: ['Equipment groups'],
        summary: 'The live equipment of a group, a page at a time',
        params: ZEquipmentParams,
        querystring: ZListQuery,
        response: { 200: ZEquipmentPage },
      },
    },
    async (request) => {
      const group = await getEntity(
        db,
        equipmentGroupsDef,
        request.params.facility,
        request.params.id,
      );
      const ids = group.equipmentIds as number[];
      return listEquipment(
        db,
        request.params.facility,
        request.query,
        (param) => `equipment.id = any(${param(ids)}::int[])`,
      );
    },
  );

  r.get(
    `${F}/equipment_groups/:id/map`,
    {
      preHandler: permit('EquipmentGroup', 'Get'),
      schema: {
        tags: ['Equipment groups'],
        summary: 'The equipment mapped to a group, with the group’s version',
        params: ZEquipmentParams,
        response: { 200: ZGroupMap },
      },
    },
    async (request) => {
      const group = await getEntity(
        db,
        equipmentGroupsDef,
        request.params.facility,
        request.params.id,
      );
      return {
        groupId: group.id,
        equipmentIds: group.equipmentIds as number[],
        version: group.version,
      };
    },
  );

  r.post(
    `${F}/equipment_groups/:id/map`,
    {
      preHandler: permit('EquipmentGroup', 'Set'),
      schema: {
        tags: ['Equipment groups'],
        summary: 'Map equipment to a group (the whole list), with a reason and the group’s version',
        description:
          'Replaces the group’s equipment with `equipmentIds`. Needs EquipmentGroup Set. Unknown or archived equipment is refused by its position (`equipmentIds[2]`); the change is audited on the group.',
        params: ZEquipmentParams,
        body: ZGroupMapRequest,
        response: { 200: ZGroupMap },
      },
    },
    async (request) => {
      const { equipmentIds, reason, version } = request.body;
      const group = await db.transaction((tx) =>
        updateEntity(tx, {
          actor: actorOf(request),
          def: equipmentGroupsDef,
          scope: scopeOf(request.params),
          id: request.params.id,
          edit: { equipmentIds },
          reason,
          version,
        }),
      );
      return {
        groupId: group.id,
        equipmentIds: group.equipmentIds as number[],
        version: group.version,
      };
    },
  );

  const productionMap = (p: Record<string, unknown> & { id: number; version: number }) => ({
    productionId: p.id,
    equipmentIds: (p.equipmentIds ?? []) as number[],
    productIds: (p.productIds ?? []) as number[],
    version: p.version,
  });

  r.get(
    `${F}/productions/:id/map`,
    {
      preHandler: permit('Production', 'Get'),
      schema: {
        tags: ['Productions'],
        summary:
          'The equipment and products of a production (its row of the production-equipment matrix)',
        params: ZEquipmentParams,
        response: { 200: ZProductionMap },
      },
    },
    async (request) =>
      productionMap(
        await getEntity(db, productionsDef, request.params.facility, request.params.id),
      ),
  );

  r.post(
    `${F}/productions/:id/map`,
    {
      preHandler: permit('Production', 'Set'),
      schema: {
        tags: ['Productions'],
        summary: 'Map equipment and products to a production, with a reason and its version',
        description:
          'Replaces the lists it is sent (`equipmentIds`, `productIds` or both). Needs Production Set. The facility’s MAC matrix follows at once, as shared equipment decides which pairs are computed.',
        params: ZEquipmentParams,
        body: ZProductionMapRequest,
        response: { 200: ZProductionMap },
      },
    },
    async (request) => {
      const { reason, version, ...lists } = request.body;
      const edit = Object.fromEntries(Object.entries(lists).filter(([, v]) => v !== undefined));
      return productionMap(
        await db.transaction((tx) =>
          updateEntity(tx, {
            actor: actorOf(request),
            def: productionsDef,
            scope: scopeOf(request.params),
            id: request.params.id,
            edit,
            reason,
            version,
          }),
        ),
      );
    },
  );

  r.get(
    `${F}/production-dropdown/no-group`,
    {
      preHandler: permit('Production', 'Get'),
      schema: {
        tags: ['Productions'],
        summary: 'Productions that use equipment in no equipment group, for the mapping screen',
        description:
          'Each live production with at least one live item of equipment that no live equipment group holds, with those items, so that they can be grouped.',
        params: ZFacilityParams,
        response: { 200: z.object({ data: z.array(ZProductionDropdownItem) }) },
      },
    },
    async (request) => {
      const rows = await db.query<{
        id: number;
        name: string;
        external_id: string | null;
        ungrouped: number[];
      }>(
        `select p.id, p.name, p.external_id,
                array_agg(equipment.id order by equipment.id) as ungrouped
           from productions p
           join equipment on equipment.facility_id = p.facility_id
                         and equipment.id = any(p.equipment_ids) and equipment.archived_at is null
          where p.facility_id = $1 and p.archived_at is null and not ${IN_A_GROUP}
          group by p.id, p.name, p.external_id
          order by lower(p.name), p.id`,
        [request.params.facility],
      );
      return {
        data: rows.map((row) => ({
          id: row.id,
          name: row.name,
          externalId: row.external_id,
          ungroupedEquipmentIds: row.ungrouped.map(Number),
        })),
      };
    },
  );
}
