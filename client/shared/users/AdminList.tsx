import { Button, Input, Space, Typography } from 'antd';
import { useState, type ReactNode } from 'react';

/**
 * The list state of an administration page: the tab (active or archived), the search and the
 * page. A new tab or search starts again at the first page.
 */
export function useAdminList() {
  const [tab, setTabState] = useState<'active' | 'archived'>('active');
  const [search, setSearchState] = useState('');
  const [page, setPage] = useState({ pageNumber: 1, pageLimit: 10 });
  const toFirstPage = () => setPage((p) => ({ ...p, pageNumber: 1 }));
  return {
    tab,
    setTab(key: string): void {
      setTabState(key as 'active' | 'archived');
      toFirstPage();
    },
    search,
    setSearch(value: string): void {
      setSearchState(value.trim());
      toFirstPage();
    },
    page,
    pagination(total: number | undefined, showSizeChanger?: boolean) {
      return {
        current: page.pageNumber,
        pageSize: page.pageLimit,
        total: total ?? 0,
        ...(showSizeChanger ? { showSizeChanger } : {}),
        onChange: (pageNumber: number, pageLimit: number) => setPage({ pageNumber, pageLimit }),
      };
    },
  };
}

/** The page's title, with its add button for those who may add. */
export function AdminListHeader(props: {
  title: string;
  addText: string;
  mayAdd: boolean;
  onAdd: () => void;
  /** Another way to add, shown beside the add button (for example "Add from directory"). */
  extra?: ReactNode;
  wrap?: boolean;
}) {
  return (
    <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap={props.wrap}>
      <Typography.Title level={2}>{props.title}</Typography.Title>
      {props.mayAdd && (
        <Space>
          {props.extra}
          <Button type="primary" onClick={props.onAdd}>
            {props.addText}
          </Button>
        </Space>
      )}
    </Space>
  );
}

export function AdminSearch(props: {
  label: string;
  placeholder?: string;
  maxWidth?: number;
  onSearch: (value: string) => void;
}) {
  return (
    <Input.Search
      aria-label={props.label}
      placeholder={props.placeholder}
      allowClear
      onSearch={props.onSearch}
      style={{ maxWidth: props.maxWidth ?? 360, marginBottom: 16 }}
    />
  );
}
