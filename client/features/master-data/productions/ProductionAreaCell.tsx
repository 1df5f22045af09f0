import { Tooltip } from 'antd';
import { formatArea } from './area-format.ts';
import { useProductionSurfaceAreas } from './production-mapping-api.ts';

/**
 * A production's total surface area in the productions list. All rows read one cached answer
 * for the facility, so the list costs one extra call, not one per row.
 */
export function ProductionAreaCell({ productionId }: { productionId: number }) {
  const areas = useProductionSurfaceAreas();
  const summary = areas.data?.data.find((s) => s.productionId === productionId);
  if (!summary) return areas.isPending ? <span>…</span> : <span>—</span>;
  if (summary.isComplete) return <span>{formatArea(summary.total)}</span>;
  const why =
    summary.missingCount > 0
      ? `${summary.missingCount} item(s) of equipment have no surface area`
      : 'No equipment is mapped';
  return (
    <Tooltip title={why}>
      <span>{formatArea(summary.total)} (incomplete)</span>
    </Tooltip>
  );
}

/** The extra column the productions list shows. */
export const productionAreaColumn = {
  key: 'surfaceArea',
  title: 'Surface area',
  render: (_: unknown, record: { id: number }) => <ProductionAreaCell productionId={record.id} />,
};
