import { equipmentDef, productionsDef } from '#core/entities/defs/index.ts';
import { missingRecord } from '#core/labels/missing-record.ts';
import { MEASURES } from '#core/units/measures.ts';
import { totalSurfaceArea, type AreaItem } from '#core/productions/surface-area.ts';
import type {
  TProductionSurfaceArea,
  TSurfaceAreaSummaries,
  TTrainSharedArea,
} from '#core/schemas/productions.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { getEntity } from '#server/entities/entity-store.ts';

interface EquipmentRow {
  id: number;
  name: string;
  external_id: string | null;
  surface_area: { value: number; unit: string } | null;
  archived_at: unknown;
}

/** The facility's default surface-area unit (spec §3 default units), sqcm when none is set. */
async function areaUnitOf(q: Queryable, facilityId: number): Promise<string> {
  const [row] = await q.query<{ unit: string }>(
    `select unit from default_units where facility_id = $1 and short_name = 'surfaceArea'`,
    [facilityId],
  );
  return row?.unit ?? MEASURES.surfaceArea.default;
}

/** An equipment id of a production whose row no longer exists (the lookup sees archived ones). */
const GONE_EQUIPMENT = missingRecord(equipmentDef.label, 'deleted');

async function equipmentById(q: Queryable, facilityId: number, ids: readonly number[]) {
  const rows = await q.query<EquipmentRow>(
    `select id, name, external_id, surface_area, archived_at from equipment
      where facility_id = $1 and id = any($2::int[])`,
    [facilityId, ids],
  );
  return new Map(rows.map((row) => [Number(row.id), row]));
}

function toItem(row: EquipmentRow): AreaItem {
  const area = row.surface_area;
  return {
    id: Number(row.id),
    name: row.name,
    surfaceArea: area && typeof area === 'object' ? area : null,
    isArchived: row.archived_at !== null,
  };
}

/**
 * The product-contact area of each list of equipment (a production's, a train's), in the
 * facility's default unit, with each item as entered and converted: two queries for all lists.
 */
export async function equipmentAreas(
  q: Queryable,
  facilityId: number,
  lists: readonly (readonly number[])[],
): Promise<TTrainSharedArea[]> {
  const allIds = [...new Set(lists.flat())];
  const [unit, rows] = await Promise.all([
    areaUnitOf(q, facilityId),
    equipmentById(q, facilityId, allIds),
  ]);
  return lists.map((ids) => {
    // An id whose row is gone cannot be counted; it shows as missing rather than vanishing.
    const items = ids.map((id): AreaItem =>
      rows.has(id) ? toItem(rows.get(id)!) : { id, name: GONE_EQUIPMENT, surfaceArea: null },
    );
    const result = totalSurfaceArea(items, unit);
    return {
      unit: result.unit,
      total: result.total,
      isComplete: result.isComplete,
      missing: result.missing,
      equipment: result.lines.map((line) => ({
        ...line,
        externalId: rows.get(line.equipmentId)?.external_id ?? null,
      })),
      derivation: result.derivation,
    };
  });
}

/** One production's total product-contact area with its breakdown per item of equipment. */
export async function getProductionSurfaceArea(
  q: Queryable,
  facilityId: number,
  productionId: number,
): Promise<TProductionSurfaceArea> {
  const production = await getEntity(q, productionsDef, facilityId, productionId);
  const ids = (production.equipmentIds as number[] | null) ?? [];
  const [area] = await equipmentAreas(q, facilityId, [ids]);
  return { productionId: production.id, name: String(production.name), ...area! };
}

/** The totals of every live production, for the productions list (two queries in all). */
export async function listProductionSurfaceAreas(
  q: Queryable,
  facilityId: number,
): Promise<TSurfaceAreaSummaries> {
  const productions = await q.query<{ id: number; equipment_ids: number[] | null }>(
    `select id, equipment_ids from productions where facility_id = $1 and archived_at is null
      order by id`,
    [facilityId],
  );
  const allIds = [...new Set(productions.flatMap((p) => (p.equipment_ids ?? []).map(Number)))];
  const [unit, rows] = await Promise.all([
    areaUnitOf(q, facilityId),
    equipmentById(q, facilityId, allIds),
  ]);
  return {
    unit,
    data: productions.map((p) => {
      const items = (p.equipment_ids ?? [])
        .map(Number)
        .map((id): AreaItem =>
          rows.has(id) ? toItem(rows.get(id)!) : { id, name: GONE_EQUIPMENT, surfaceArea: null },
        );
      const result = totalSurfaceArea(items, unit);
      return {
        productionId: Number(p.id),
        total: result.total,
        isComplete: result.isComplete,
        missingCount: result.missing.length,
      };
    }),
  };
}
