import { Descriptions, Table } from 'antd';
import type { Derivation, DerivationInput, DerivationStep } from '#core/limits/derivation.ts';
import { useNumberFormat } from '#client/shared/use-number-format.ts';
import { DerivationSource } from './DerivationSource.tsx';

/*
 * A derivation as every screen shows it (the limits' pairs and reports, an HBEL monograph's PDE):
 * formula, reference, result, each input with its unit and the record it came from, and the steps,
 * for a reviewer to redo by hand.
 */

/** The formula, reference and result, and each input with its source. */
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

/** Each intermediate value of a derivation. */
export function DerivationSteps({ steps }: { steps: DerivationStep[] }) {
  const numbers = useNumberFormat();
  if (steps.length === 0) return null;
  return (
    <Table<DerivationStep>
      size="small"
      pagination={false}
      rowKey={(row) => `${row.symbol}:${row.expression}`}
      dataSource={steps}
      columns={[
        { key: 'symbol', title: 'Step', dataIndex: 'symbol' },
        { key: 'expression', title: 'How', dataIndex: 'expression' },
        {
          key: 'value',
          title: 'Value',
          render: (_: unknown, row: DerivationStep) => numbers.quantity(row.value, row.unit),
        },
      ]}
    />
  );
}
