import { Alert, Table } from 'antd';
import type { TableColumnsType } from 'antd';
import { useState } from 'react';
import type { TImpactPair } from '#core/schemas/change-assessments.schemas.ts';
import { useImpactPairs } from '#client/shared/change-assessments/change-assessments-api.ts';

/** A page of the evaluation's listed pairs (GET …/impact/pairs), with the columns given. */
export function ImpactPairsTable(props: {
  assessmentId: number;
  filter: { previous?: string; stays?: boolean };
  columns: TableColumnsType<TImpactPair>;
  emptyText: string;
  pageLimit?: number;
}) {
  const [page, setPage] = useState({ pageNumber: 1, pageLimit: props.pageLimit ?? 20 });
  const pairs = useImpactPairs(props.assessmentId, { ...page, ...props.filter });
  return (
    <>
      {pairs.isError ? <Alert type="error" showIcon title={pairs.error.message} /> : null}
      <Table<TImpactPair>
        rowKey={(pair) => `${pair.previous}→${pair.next}`}
        size="small"
        loading={pairs.isFetching}
        dataSource={pairs.data?.pairs ?? []}
        locale={{ emptyText: pairs.isPending ? ' ' : props.emptyText }}
        columns={props.columns}
        pagination={{
          current: page.pageNumber,
          pageSize: page.pageLimit,
          total: pairs.data?.total ?? 0,
          hideOnSinglePage: true,
          onChange: (pageNumber, pageLimit) => setPage({ pageNumber, pageLimit }),
        }}
      />
    </>
  );
}
