import { Alert, Card, Input, Table, Typography } from 'antd';
import { useState } from 'react';
import type { TFeedback } from '#core/schemas/dashboard.schemas.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { useFeedbackList } from './feedback-api.ts';

/** What the facility's users sent with the Feedback button, newest first. */
export function FeedbackPage() {
  const { formatDateTime } = useDateFormat();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState({ pageNumber: 1, pageLimit: 10 });
  const list = useFeedbackList(search, page.pageNumber, page.pageLimit);

  return (
    <Card>
      <Typography.Title level={2}>Feedback</Typography.Title>
      <Input.Search
        placeholder="Search the text or the screen"
        allowClear
        onSearch={(value) => {
          setSearch(value.trim());
          setPage((current) => ({ ...current, pageNumber: 1 }));
        }}
        style={{ maxWidth: 360, marginBottom: 16 }}
        aria-label="Search feedback"
      />
      {list.isError ? <Alert type="error" title={list.error.message} /> : null}
      <Table<TFeedback>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.data ?? []}
        locale={{ emptyText: 'No feedback has been sent yet.' }}
        pagination={{
          current: page.pageNumber,
          pageSize: page.pageLimit,
          total: list.data?.total ?? 0,
          onChange: (pageNumber, pageLimit) => setPage({ pageNumber, pageLimit }),
        }}
        columns={[
          { title: 'Sent', dataIndex: 'createdAt', render: (v: string) => formatDateTime(v) },
          { title: 'By', dataIndex: 'userName' },
          { title: 'Screen', dataIndex: 'screenPath' },
          { title: 'Feedback', dataIndex: 'text' },
        ]}
      />
    </Card>
  );
}
