import { Col, Empty, Row, Typography } from 'antd';
import { Link } from 'react-router';
import { equipmentDef, productionsDef, productsDef } from '#core/entities/defs/index.ts';
import { totalSurfaceArea, type AreaItem } from '#core/productions/surface-area.ts';
import type { EntityRecord } from '#client/shared/master-data/entity-api.ts';
import { useArchivedNames, useEntityOptions } from '#client/shared/master-data/entity-queries.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { usePermissions } from '#client/shared/permissions.ts';
import { formatArea } from './area-format.ts';
import { MappingToolbar } from './MappingToolbar.tsx';
import { AreaPreview } from './AreaPreview.tsx';
import { ProductEquipmentGrid, archivedLabel } from './ProductEquipmentGrid.tsx';
import {
  useProductionMap,
  useProductionSurfaceArea,
  useSaveProductionMap,
} from './production-mapping-api.ts';
import { TickList, type TickRow } from './TickList.tsx';
import { NO_CHANGES, applyTicks, hasChanges, toggleTick, type TickChanges } from './tick-draft.ts';
import { useMappingScreen } from './use-mapping-screen.ts';

interface Draft {
  productionId: number;
  equipment: TickChanges;
  products: TickChanges;
}

/**
 * Mapped records that are no longer live (archived): shown so that they can be unticked, since
 * the server refuses to save a mapping that names an archived record.
 */
function archivedIds(ids: readonly number[], live: readonly EntityRecord[] | undefined): number[] {
  if (!live) return [];
  const liveIds = new Set(live.map((row) => row.id));
  return ids.filter((id) => !liveIds.has(id));
}

function archivedRows(ids: readonly number[], names: Map<number, string>): TickRow[] {
  return ids.map((id) => ({
    id,
    name: archivedLabel(names, id),
    detail: 'archived',
  }));
}

/**
 * The production-equipment matrix, one production at a time: which equipment it uses and which
 * products are made on it. Every product made there shares the ticked equipment's surface, so the
 * total area shown is the shared surface the MAC matrix divides by.
 */
export function ProductionEquipmentMatrixPage() {
  const screen = useMappingScreen<Draft>(
    'production',
    'Mapping saved. The MAC matrix follows the new shared equipment.',
  );
  const { id: productionId, draft, setDraft } = screen;
  const permissions = usePermissions();
  const canSet = permissions.can('Production', 'Set');
  const productions = useEntityOptions(productionsDef);
  const equipment = useEntityOptions(equipmentDef);
  const products = useEntityOptions(productsDef);
  const map = useProductionMap(productionId);
  const area = useProductionSurfaceArea(productionId);
  const save = useSaveProductionMap();

  // The user's ticks are changes to the saved map: they survive a refetch and a conflict.
  const changes: Omit<Draft, 'productionId'> =
    draft !== null && draft.productionId === productionId
      ? draft
      : { equipment: NO_CHANGES, products: NO_CHANGES };
  const current =
    map.data && map.data.productionId === productionId
      ? {
          productionId,
          equipmentIds: applyTicks(map.data.equipmentIds, changes.equipment),
          productIds: applyTicks(map.data.productIds, changes.products),
        }
      : null;
  const isChanged =
    map.data !== undefined &&
    (hasChanges(map.data.equipmentIds, changes.equipment) ||
      hasChanges(map.data.productIds, changes.products));

  const equipmentRows = equipment.data?.data ?? [];
  // From the saved map: an archived row unticked stays listed (unticked) until the save.
  const saved = current ? map.data : undefined;
  const archivedEquipment = archivedIds(saved?.equipmentIds ?? [], equipment.data?.data);
  const archivedProducts = archivedIds(saved?.productIds ?? [], products.data?.data);
  const archivedEquipmentNames = useArchivedNames(equipmentDef, archivedEquipment.length > 0);
  const archivedProductNames = useArchivedNames(productsDef, archivedProducts.length > 0);
  // Cheap enough to recompute on every tick: a sum over the production's equipment.
  const draftArea = (() => {
    if (!current || !area.data) return undefined;
    const byId = new Map(equipmentRows.map((e) => [e.id, e]));
    const items = current.equipmentIds.map((id) => {
      const row = byId.get(id);
      // Not among the live equipment: archived, so listed but not counted (as on the server).
      return row
        ? { id, name: String(row.name), surfaceArea: row.surfaceArea as AreaItem['surfaceArea'] }
        : {
            id,
            name: archivedEquipmentNames.get(id) ?? 'Archived record',
            surfaceArea: null,
            isArchived: true,
          };
    });
    return totalSurfaceArea(items, area.data.unit);
  })();

  function toggle(list: 'equipment' | 'products', id: number, isTicked: boolean) {
    if (!map.data || productionId === undefined) return;
    const saved = list === 'equipment' ? map.data.equipmentIds : map.data.productIds;
    setDraft(
      { ...changes, productionId, [list]: toggleTick(saved, changes[list], id, isTicked) },
      map.data.version,
    );
  }

  async function submit(reason: string): Promise<void> {
    if (!current || !map.data) return;
    const version = screen.versionOf(map.data.version);
    const { equipmentIds, productIds } = current;
    await screen.run(() =>
      save.mutateAsync({ id: current.productionId, equipmentIds, productIds, version, reason }),
    );
  }

  const productionName = productions.data?.data.find((p) => p.id === productionId)?.name;
  return (
    <section aria-label="Production-Equipment Matrix">
      <Typography.Title level={3} style={{ margin: 0 }}>
        Production-Equipment Matrix
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Tick the equipment a production uses and the products made on it. The products made on a
        production share its equipment’s surface area, and the{' '}
        <Link to="/limits/mac-matrix">MAC matrix</Link> follows the saved mapping.
      </Typography.Paragraph>
      <MappingToolbar
        screen={screen}
        label="Production"
        placeholder="Choose a production"
        records={productions}
        saveText="Save mapping"
        isChanged={isChanged}
        canSet={canSet}
        onReload={() => void screen.reload(() => Promise.all([map.refetch(), area.refetch()]))}
        loadError={map.error}
      />
      {productionId === undefined ? (
        <Empty description="Choose a production to see and change its equipment and products" />
      ) : current ? (
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={8}>
            <AreaPreview saved={area.data} draft={draftArea} isChanged={isChanged} />
          </Col>
          <Col xs={24} md={12} xl={8}>
            <TickList
              title="Equipment"
              detailTitle="Surface area"
              rows={[
                ...equipmentRows.map((e) => ({
                  id: e.id,
                  name: String(e.name),
                  detail: formatArea(e.surfaceArea as AreaItem['surfaceArea']),
                })),
                ...archivedRows(archivedEquipment, archivedEquipmentNames),
              ]}
              ticked={new Set(current.equipmentIds)}
              onToggle={(id, on) => toggle('equipment', id, on)}
              disabled={!canSet}
              loading={equipment.isPending}
              emptyText="No equipment yet"
            />
          </Col>
          <Col xs={24} md={12} xl={8}>
            <TickList
              title="Products"
              rows={[
                ...(products.data?.data ?? []).map((p) => ({ id: p.id, name: String(p.name) })),
                ...archivedRows(archivedProducts, archivedProductNames),
              ]}
              ticked={new Set(current.productIds)}
              onToggle={(id, on) => toggle('products', id, on)}
              disabled={!canSet}
              loading={products.isPending}
              emptyText="No products yet"
            />
          </Col>
          <Col span={24}>
            <ProductEquipmentGrid
              productionId={current.productionId}
              productIds={current.productIds}
              equipmentIds={current.equipmentIds}
              products={products.data?.data ?? []}
              equipment={equipmentRows}
              productions={productions.data?.data ?? []}
              archivedNames={{ products: archivedProductNames, equipment: archivedEquipmentNames }}
            />
          </Col>
        </Row>
      ) : null}
      <ReasonDialog
        open={screen.isAsking}
        title={`Save the mapping of '${String(productionName ?? '')}'`}
        okText="Save"
        description="The MAC matrix of this facility is recomputed from the saved mapping."
        managedByCaller
        onSubmit={({ reason }) => submit(reason)}
        onClose={() => screen.setAsking(false)}
      />
    </section>
  );
}
