import { PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Select, Table, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  CHANGE_STATUSES,
  type TChangeAssessmentSummary,
  type TChangeStatus,
} from '#core/schemas/change-assessments.schemas.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { StatusTag } from '#client/shared/records/StatusTag.tsx';
import { useChangeAssessments } from '#client/shared/change-assessments/change-assessments-api.ts';
import type { ChangeAssessmentListQuery } from '#client/shared/change-assessments/change-assessments-api.ts';
import { ChangeAssessmentForm } from './ChangeAssessmentForm.tsx';
import { ChangeStatusTag } from '#client/shared/change-assessments/ChangeStatusTag.tsx';
import { LoadErrorAlert } from '#client/shared/LoadErrorAlert.tsx';
import { serverPaging } from '#client/shared/paging.ts';

/** Change control: the facility's change assessments, newest first, by change status. */
export function ChangeAssessmentsPage() {
  const navigate = useNavigate();
  const permissions = usePermissions();
  const { formatDateTime } = useDateFormat();
  const [query, setQuery] = useState<ChangeAssessmentListQuery>({ pageNumber: 1, pageLimit: 10 });
  const [creating, setCreating] = useState(false);
  const list = useChangeAssessments(query);
  const canGenerate = permissions.can('FacilityCleaningEvaluation', 'Generate');
  const open = (id: number) => void navigate(`/change-control/${id}`);

  const columns: TableProps<TChangeAssessmentSummary>['columns'] = [
    {
      key: 'number',
      title: 'Number',
      fixed: 'left',
      render: (_, row) => <Link to={`/change-control/${row.id}`}>{row.number}</Link>,
    },
    { key: 'title', dataIndex: 'title', title: 'Title' },
    { key: 'changeType', dataIndex: 'changeType', title: 'Change type' },
    {
      key: 'changeStatus',
      title: 'Change status',
      render: (_, row) => <ChangeStatusTag status={row.changeStatus} />,
    },
    { key: 'status', title: 'Record status', render: (_, row) => <StatusTag state={row} /> },
    { key: 'changeCount', dataIndex: 'changeCount', title: 'Staged changes' },
    {
      key: 'moc',
      title: 'Change-of-control record',
      render: (_, row) =>
        row.mocNumber ? <Link to="/master-data/moc">{row.mocNumber}</Link> : '—',
    },
    {
      key: 'updatedAt',
      title: 'Updated',
      render: (_, row) => formatDateTime(row.updatedAt),
    },
  ];

  const emptyText = query.changeStatus ? (
    <Empty description={`No change assessments are ${query.changeStatus}`} />
  ) : (
    <Empty description="No change assessments yet. A change to master data or a policy that moves limits is assessed here before it is approved.">
      {canGenerate ? (
        <Button type="primary" onClick={() => setCreating(true)}>
          New change assessment
        </Button>
      ) : null}
    </Empty>
  );

  return (
    <section aria-label="Change control">
      <Flex justify="space-between" align="start" wrap style={{ marginBottom: 16 }}>
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            Change control
          </Typography.Title>
          <Typography.Text type="secondary">
            Change assessments: a staged change to master data or a policy, its impact on every
            limit, and the decisions on it, approved before anything changes.
          </Typography.Text>
        </div>
        {canGenerate ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            New change assessment
          </Button>
        ) : null}
      </Flex>
      <Select<TChangeStatus | undefined>
        aria-label="Change status"
        placeholder="Every change status"
        allowClear
        style={{ width: 240, marginBottom: 16 }}
        value={query.changeStatus}
        options={CHANGE_STATUSES.map((status) => ({ value: status, label: status }))}
        onChange={(changeStatus) =>
          setQuery((current) => ({ ...current, changeStatus, pageNumber: 1 }))
        }
      />
      {list.isError ? (
        <LoadErrorAlert
          title="Could not load the change assessments"
          query={list}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <Table<TChangeAssessmentSummary>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.changeAssessments ?? []}
        loading={list.isFetching}
        locale={{ emptyText: list.isPending ? ' ' : emptyText }}
        pagination={serverPaging(
          query,
          list.data?.total ?? 0,
          { one: 'change assessment', many: 'change assessments' },
          (pageNumber, pageLimit) => setQuery((current) => ({ ...current, pageNumber, pageLimit })),
        )}
        scroll={{ x: 'max-content' }}
      />
      {creating ? (
        <ChangeAssessmentForm
          assessment={null}
          onSaved={(saved) => open(saved.id)}
          onClose={() => setCreating(false)}
        />
      ) : null}
    </section>
  );
}
