import type { TablePaginationConfig } from 'antd';

/**
 * The pager of a server-paged list: the page asked for, the total the server counted ('12
 * products'), and, when given, where a page change goes.
 */
export function serverPaging(
  query: { pageNumber: number; pageLimit: number },
  total: number,
  noun: { one: string; many: string },
  onChange?: (pageNumber: number, pageLimit: number) => void,
): TablePaginationConfig {
  return {
    current: query.pageNumber,
    pageSize: query.pageLimit,
    total,
    showSizeChanger: true,
    showTotal: (count) => `${count} ${count === 1 ? noun.one : noun.many}`,
    ...(onChange ? { onChange } : {}),
  };
}
