import { Alert, Drawer, Table } from 'antd';
import { useState } from 'react';
import type { TImpactItem, TImpactPair } from '#core/schemas/change-assessments.schemas.ts';
import { formatChange } from '#client/shared/limits/what-if-format.ts';
import { useImpactPairs } from '#client/shared/change-assessments/change-assessments-api.ts';
import { limitLines } from '#client/shared/change-assessments/impact-format.ts';

/** The pairs behind one impact item (its previous product's pairs), largest change first. */
export function ImpactPairsDrawer(props: {
  assessmentId: number;
  item: TImpactItem;
  onClose: () => void;
}) {
  const { item } = props;
  const [page, setPage] = useState({ pageNumber: 1, pageLimit: 20 });
  const pairs = useImpactPairs(props.assessmentId, { ...page, previous: item.subject });
  const change = (value: number | null) => (
    <span style={value !== null && value < 0 ? { color: 'var(--ant-color-error)' } : undefined}>
      {formatChange(value)}
    </span>
  );
  return (
    <Drawer open size={900} title={`Pairs of ${item.subject}`} onClose={props.onClose}>
      {pairs.isError ? <Alert type="error" showIcon title={pairs.error.message} /> : null}
      <Table<TImpactPair>
        rowKey={(pair) => `${pair.previous}→${pair.next}`}
        size="small"
        loading={pairs.isFetching}
        dataSource={pairs.data?.pairs ?? []}
        locale={{ emptyText: pairs.isPending ? ' ' : 'No pairs are listed for this item' }}
        columns={[
          { key: 'previous', dataIndex: 'previous', title: 'Previous product' },
          { key: 'next', dataIndex: 'next', title: 'Next product' },
          {
            key: 'limits',
            title: 'Before → after',
            render: (_, pair) =>
              limitLines({ ...pair, units: item.units }).map((line) => (
                <div key={line}>{line}</div>
              )),
          },
          { key: 'maco', title: 'MACO', render: (_, pair) => change(pair.macoChange) },
          { key: 'sal', title: 'SAL', render: (_, pair) => change(pair.salChange) },
          { key: 'swab', title: 'Swab', render: (_, pair) => change(pair.swabChange) },
          { key: 'rinse', title: 'Rinse', render: (_, pair) => change(pair.rinseChange) },
        ]}
        pagination={{
          current: page.pageNumber,
          pageSize: page.pageLimit,
          total: pairs.data?.total ?? 0,
          onChange: (pageNumber, pageLimit) => setPage({ pageNumber, pageLimit }),
        }}
      />
    </Drawer>
  );
}
