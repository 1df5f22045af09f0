import { Checkbox, Table, Typography } from 'antd';
import type { ReactNode } from 'react';

export interface TickRow {
  id: number;
  name: string;
  detail?: ReactNode;
}

interface TickListProps {
  title: string;
  /** Heading of the detail column (e.g. the surface area); none when the rows have no detail. */
  detailTitle?: string;
  rows: TickRow[];
  ticked: ReadonlySet<number>;
  onToggle: (id: number, isTicked: boolean) => void;
  disabled?: boolean;
  loading?: boolean;
  emptyText: string;
}

/**
 * A list of records with a tick each, named by the record so that a screen reader (and a test)
 * finds "Mixer 1" in the region of the list it belongs to.
 */
export function TickList(props: TickListProps) {
  const { title, detailTitle, rows, ticked, onToggle, disabled, loading, emptyText } = props;
  return (
    <section aria-label={title}>
      <Typography.Title level={5}>
        {title} ({rows.filter((row) => ticked.has(row.id)).length} of {rows.length} ticked)
      </Typography.Title>
      <Table<TickRow>
        rowKey="id"
        size="small"
        loading={loading ?? false}
        dataSource={rows}
        pagination={false}
        scroll={{ y: 420 }}
        locale={{ emptyText }}
        columns={[
          {
            key: 'name',
            title: 'Name',
            render: (_: unknown, row) => (
              <Checkbox
                checked={ticked.has(row.id)}
                disabled={disabled ?? false}
                onChange={(event) => onToggle(row.id, event.target.checked)}
              >
                {row.name}
              </Checkbox>
            ),
          },
          ...(detailTitle
            ? [
                {
                  key: 'detail',
                  title: detailTitle,
                  render: (_: unknown, row: TickRow) => row.detail,
                },
              ]
            : []),
        ]}
      />
    </section>
  );
}
