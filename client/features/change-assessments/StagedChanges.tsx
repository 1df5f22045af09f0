import { PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableProps } from 'antd';
import { useState } from 'react';
import type { TChangeAssessment, TStagedChange } from '#core/schemas/change-assessments.schemas.ts';
import { useReasonAction } from '#client/shared/reason/use-reason-action.tsx';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import {
  changeCalls,
  useChangeWrite,
} from '#client/shared/change-assessments/change-assessments-api.ts';
import { EditStagedChange, StageChange } from './StageChange.tsx';
import { isEditable, OP_LABELS } from './stage-target.ts';

/** The staged change set, in the order it will be applied on approval. */
export function StagedChanges(props: { assessment: TChangeAssessment; canEdit: boolean }) {
  const { assessment, canEdit } = props;
  const { formatDateTime } = useDateFormat();
  const [staging, setStaging] = useState(false);
  const [editing, setEditing] = useState<TStagedChange | null>(null);
  const reasons = useReasonAction();
  const unstage = useChangeWrite(
    (scope, { change, reason }: { change: TStagedChange; reason: string }) =>
      changeCalls.unstage(scope, assessment.id, change.id, { reason, version: assessment.version }),
  );

  const columns: TableProps<TStagedChange>['columns'] = [
    { key: 'position', dataIndex: 'position', title: '#', width: 48 },
    {
      key: 'label',
      title: 'Change',
      render: (_, change) => (
        <Space wrap>
          <span>{change.label}</span>
          {assessment.applied ? (
            <Tag color="success">Applied</Tag>
          ) : change.current ? null : (
            <Tooltip title="The record was changed directly since this was staged: open it and stage it again.">
              <Tag color="warning">Stale</Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    { key: 'op', title: 'Operation', render: (_, change) => OP_LABELS[change.op] },
    { key: 'reason', dataIndex: 'reason', title: 'Reason' },
    {
      key: 'stagedAt',
      title: 'Staged',
      render: (_, change) =>
        change.editedAt
          ? `${formatDateTime(change.stagedAt)}, edited ${formatDateTime(change.editedAt)}`
          : formatDateTime(change.stagedAt),
    },
    ...(canEdit
      ? [
          {
            key: 'actions',
            title: 'Actions',
            render: (_: unknown, change: TStagedChange) => (
              <Space>
                {isEditable(change) ? (
                  <Button size="small" onClick={() => setEditing(change)}>
                    Edit
                  </Button>
                ) : null}
                <Button
                  size="small"
                  danger
                  onClick={() =>
                    reasons.ask({
                      title: `Remove '${change.label}' from the change set`,
                      okText: 'Remove',
                      danger: true,
                      run: (reason) => unstage.mutateAsync({ change, reason }),
                    })
                  }
                >
                  Remove
                </Button>
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <section aria-label="Staged changes">
      <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          Staged changes
        </Typography.Title>
        {canEdit ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setStaging(true)}>
            Stage a change
          </Button>
        ) : null}
      </Flex>
      <Table<TStagedChange>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={assessment.changes}
        pagination={false}
        locale={{
          emptyText: (
            <Empty description="Nothing staged yet. Stage the edits, additions and archives this change makes; nothing changes until the assessment is approved." />
          ),
        }}
      />
      {staging ? <StageChange assessment={assessment} onClose={() => setStaging(false)} /> : null}
      {editing ? (
        <EditStagedChange
          assessment={assessment}
          change={editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {reasons.modal}
    </section>
  );
}
