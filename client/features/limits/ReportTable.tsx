import { Table, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { matching, SearchBox } from './LimitCell.tsx';
import { ReportState } from './ReportState.tsx';
import { LeftOutAlert } from '#client/shared/limits/LeftOutAlert.tsx';
import type { TUncomputable } from '#core/schemas/mac-matrix.schemas.ts';

/** Every report says what it left out (products whose stored data cannot be computed). */
type Report = { uncomputable?: TUncomputable[] };

interface ReportTableProps<A extends Report, T> {
  query: {
    data: A | undefined;
    isPending: boolean;
    isError: boolean;
    error: Error | null;
    refetch: () => unknown;
  };
  /** What the report is, in "Could not load the …". */
  what: string;
  empty?: { text: string; to: string; link: string };
  rowsOf: (data: A) => T[];
  /** The paragraph above the table: what the numbers are and how to open their derivation. */
  intro: (data: A) => ReactNode;
  /** A chart between the paragraph and the table, if the report has one. */
  chart?: (data: A) => ReactNode;
  searchPlaceholder: string;
  /** The names a row is found by in the search box. */
  searchOf: (row: T) => string[];
  table: (data: A) => Omit<TableProps<T>, 'dataSource' | 'size' | 'pagination'>;
}

/** A limits report: its loading and empty states, its explanation, a search box and the table. */
export function ReportTable<A extends Report, T extends object>(props: ReportTableProps<A, T>) {
  const { query, rowsOf } = props;
  const [search, setSearch] = useState('');
  const data = query.data;
  return (
    <>
      {/* Before the table or its empty state: a report with every product left out is not empty. */}
      {data ? <LeftOutAlert uncomputable={data.uncomputable ?? []} /> : null}
      <ReportState
        query={query}
        isEmpty={!data || rowsOf(data).length === 0}
        what={props.what}
        empty={props.empty}
      >
        {data ? (
          <>
            <Typography.Paragraph type="secondary">{props.intro(data)}</Typography.Paragraph>
            {props.chart?.(data)}
            <SearchBox placeholder={props.searchPlaceholder} onSearch={setSearch} />
            <Table<T>
              size="small"
              pagination={{ defaultPageSize: 20, showSizeChanger: true }}
              // Many limits side by side: the rows scroll, their first column stays in sight.
              scroll={{ x: 'max-content' }}
              {...withFirstColumnFixed(props.table(data))}
              dataSource={matching(rowsOf(data), search, props.searchOf)}
            />
          </>
        ) : null}
      </ReportState>
    </>
  );
}

function withFirstColumnFixed<T>(table: Omit<TableProps<T>, 'dataSource' | 'size' | 'pagination'>) {
  const [first, ...rest] = table.columns ?? [];
  return first ? { ...table, columns: [{ ...first, fixed: 'left' as const }, ...rest] } : table;
}
