import { Empty, Table, Typography } from 'antd';
import type { EntityRecord } from '#client/shared/master-data/entity-api.ts';

interface GridProps {
  productionId: number;
  productIds: readonly number[];
  equipmentIds: readonly number[];
  products: readonly EntityRecord[];
  equipment: readonly EntityRecord[];
  /** Every live production, to show where else a product is made on the same item. */
  productions: readonly EntityRecord[];
  /** Names of archived records the production still names. */
  archivedNames: { products: Map<number, string>; equipment: Map<number, string> };
}

/** How an archived record the production still names is shown: its name, said archived. */
export function archivedLabel(names: Map<number, string>, id: number): string {
  return `${names.get(id) ?? 'Archived record'} (archived)`;
}

const idsOf = (record: EntityRecord, key: string) => (record[key] as number[] | null) ?? [];

/**
 * Products × equipment of the production as ticked: every product made here touches every
 * ticked item, so each row's shared surface is the production's total. A cell also names the
 * other productions that make the product on the same item, since the MAC matrix pairs products
 * over all the equipment they share in the facility.
 */
export function ProductEquipmentGrid(props: GridProps) {
  const { productionId, productIds, equipmentIds, products, equipment, productions } = props;
  const nameOf = (rows: readonly EntityRecord[], archived: Map<number, string>, id: number) => {
    const live = rows.find((r) => r.id === id);
    return live ? String(live.name) : archivedLabel(archived, id);
  };
  const others = productions.filter((p) => p.id !== productionId);
  if (productIds.length === 0 || equipmentIds.length === 0) {
    return <Empty description="Tick equipment and products to see which product touches what" />;
  }
  const rows = productIds.map((id) => ({
    id,
    name: nameOf(products, props.archivedNames.products, id),
  }));
  return (
    <section aria-label="Products × equipment">
      <Typography.Title level={5}>Products × equipment (as ticked)</Typography.Title>
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={rows}
        columns={[
          { key: 'product', title: 'Product', dataIndex: 'name', fixed: 'left' as const },
          ...equipmentIds.map((equipmentId) => ({
            key: `e${equipmentId}`,
            title: nameOf(equipment, props.archivedNames.equipment, equipmentId),
            render: (_: unknown, row: { id: number }) => {
              const also = others
                .filter(
                  (p) =>
                    idsOf(p, 'productIds').includes(row.id) &&
                    idsOf(p, 'equipmentIds').includes(equipmentId),
                )
                .map((p) => String(p.name));
              return also.length ? `✓ (also ${also.join(', ')})` : '✓';
            },
          })),
        ]}
      />
    </section>
  );
}
