import { Segmented, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { useGridPair, useMacGrid, type GridCell } from './mac-grid-api.ts';
import { SHADES, shadeScale, type GridMeasure, type ShadeScale } from './mac-grid.ts';
import { MatrixState } from './MatrixState.tsx';
import { PairDrawer } from './PairDrawer.tsx';
import { ProductGrid } from './ProductGrid.tsx';

const MEASURES = {
  maco: { label: 'MACO', unit: 'mg' },
  sal: { label: 'SAL', unit: 'mg/sqcm' },
} as const;

function GridLegend({ scale, unit }: { scale: ShadeScale | null; unit: string }) {
  const numbers = useNumberFormat();
  return (
    <div className="mac-grid-legend" aria-label="Legend">
      {scale?.bounds.slice(1).map((high, b) => (
        <span key={b}>
          <span className="mac-grid-swatch" style={{ background: SHADES[b] }} />
          {numbers.number(scale.bounds[b] ?? high)}–{numbers.quantity(high, unit)}
        </span>
      ))}
      <span>
        <span className="mac-grid-swatch is-none" />
        No limit
      </span>
      <span>
        <span className="mac-grid-swatch is-flagged" />
        Needs action (red corner)
      </span>
      <span>
        <span className="mac-grid-swatch is-advised" />
        Advisory: health-based limit over 10 × the traditional ones (grey corner)
      </span>
      <span>
        <span className="mac-grid-swatch" />
        No shared equipment
      </span>
    </div>
  );
}

/**
 * The MAC matrix as a product × product grid, each pair shaded by its governing MACO or its SAL
 * (darker is stricter); a click opens the pair as the pairs list does.
 */
export function MacGridTab({ productionId }: { productionId: number | undefined }) {
  const grid = useMacGrid(productionId);
  const [measure, setMeasure] = useState<GridMeasure>('maco');
  const [cell, setCell] = useState<GridCell | null>(null);
  const pair = useGridPair(cell, productionId);
  const data = grid.data;
  const values = data?.[measure];
  const scale = useMemo(() => (values ? shadeScale(values, SHADES.length) : null), [values]);
  const { label, unit } = MEASURES[measure];

  return (
    <MatrixState
      query={grid}
      what="MAC matrix grid"
      uncomputable={data?.uncomputable}
      isEmpty={!data || data.pairCount === 0}
    >
      {() =>
        data && values ? (
          <>
            <Space wrap size="middle" style={{ marginBottom: 12 }}>
              <Segmented<GridMeasure>
                aria-label="Shade by"
                options={[
                  { label: 'Governing MACO', value: 'maco' },
                  { label: 'SAL', value: 'sal' },
                ]}
                value={measure}
                onChange={setMeasure}
              />
              <Typography.Text type="secondary">
                {data.axis.length.toLocaleString('en-US')} products,{' '}
                {data.pairCount.toLocaleString('en-US')} pairs; darker is stricter
              </Typography.Text>
            </Space>
            <div style={{ marginBottom: 12 }}>
              <GridLegend scale={scale} unit={unit} />
            </div>
            <ProductGrid
              data={data}
              values={values}
              label={label}
              unit={unit}
              scale={scale}
              onOpen={(previous, next) =>
                setCell({
                  previous: data.products[previous] ?? '',
                  next: data.products[next] ?? '',
                })
              }
            />
            <PairDrawer
              pair={cell ? (pair.data ?? null) : null}
              productionId={productionId}
              onClose={() => setCell(null)}
            />
          </>
        ) : null
      }
    </MatrixState>
  );
}
