import { Alert, Collapse, Descriptions, Skeleton, Table, Typography } from 'antd';
import type { Derivation, DerivationInput } from '#core/limits/derivation.ts';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { DerivationSource } from './DerivationSource.tsx';
import { areaLabel, criterionLabel } from './pair-explanation.ts';
import { usePairDerivation } from './use-pair-derivation.ts';

export function OneDerivation({ derivation }: { derivation: Derivation }) {
  const numbers = useNumberFormat();
  return (
    <>
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'formula', label: 'Formula', children: derivation.formula },
          { key: 'reference', label: 'Reference', children: derivation.reference },
          {
            key: 'result',
            label: 'Result',
            children: derivation.result ? numbers.quantityOf(derivation.result) : '—',
          },
          ...(derivation.note ? [{ key: 'note', label: 'Note', children: derivation.note }] : []),
        ]}
      />
      {derivation.inputs.length > 0 ? (
        <Table<DerivationInput>
          size="small"
          pagination={false}
          rowKey={(row) => `${row.symbol}:${row.source}`}
          dataSource={derivation.inputs}
          columns={[
            { key: 'symbol', title: 'Symbol', dataIndex: 'symbol' },
            { key: 'name', title: 'Input', dataIndex: 'name' },
            {
              key: 'given',
              title: 'Value',
              render: (_: unknown, row: DerivationInput) =>
                // The value in the formula's unit, where the entry was in another one.
                typeof row.value === 'number' && row.unit !== row.given?.unit
                  ? `${numbers.quantityOf(row.given)} = ${numbers.quantity(row.value, row.unit)}`
                  : numbers.quantityOf(row.given),
            },
            {
              key: 'source',
              title: 'Source',
              render: (_: unknown, row: DerivationInput) => <DerivationSource input={row} />,
            },
          ]}
        />
      ) : null}
    </>
  );
}

/** The server's derivation of a pair from the facility's inputs, criterion by criterion. */
export function DerivationView({
  previous,
  next,
  productionId,
}: {
  previous: string;
  next: string;
  productionId?: number | undefined;
}) {
  const derivation = usePairDerivation(previous, next, productionId);
  if (derivation.isPending) return <Skeleton active />;
  if (derivation.isError) {
    return <Alert type="warning" showIcon title={derivation.error.message} />;
  }
  const { criteria, area, sal, swabLimit, rinseLimit } = derivation.data;
  const items = [
    ...Object.entries(criteria)
      .filter(([, d]) => d.result !== null)
      .map(([key, d]) => ({
        key,
        label: criterionLabel(key),
        children: <OneDerivation derivation={d} />,
      })),
    { key: 'area', label: areaLabel(area), children: <OneDerivation derivation={area} /> },
    { key: 'sal', label: 'SAL', children: <OneDerivation derivation={sal} /> },
    ...(swabLimit
      ? [{ key: 'swab', label: 'Swab limit', children: <OneDerivation derivation={swabLimit} /> }]
      : []),
    ...(rinseLimit
      ? [
          {
            key: 'rinse',
            label: 'Rinse limit',
            children: <OneDerivation derivation={rinseLimit} />,
          },
        ]
      : []),
  ];
  return (
    <>
      <Typography.Paragraph type="secondary">
        Each input with its unit and where it was recorded.
      </Typography.Paragraph>
      <Collapse size="small" items={items} />
    </>
  );
}
