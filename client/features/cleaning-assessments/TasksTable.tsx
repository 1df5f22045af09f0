import { Alert, Flex, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  COVERAGE_LABELS,
  TASK_STATUSES,
  type TQualificationTask,
} from '#core/schemas/cleaning-assessments.schemas.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import {
  useAssessments,
  useTasks,
  type TaskFilter,
} from '#client/shared/cleaning-assessments/cleaning-assessments-api.ts';
import { TaskDecision } from './TaskDecision.tsx';
import { NAME_PENDING } from '#client/shared/display-labels.ts';

const STATUS_COLOURS = { Open: 'processing', Accepted: 'success', Dismissed: 'default' } as const;

type Status = (typeof TASK_STATUSES)[number];

/** A filter of the task list; clearing it shows every value. */
function FilterSelect<T extends string | number>(props: {
  label: string;
  placeholder: string;
  value: T | undefined;
  onChange: (value: T | undefined) => void;
  options: { value: T; label: string }[];
}) {
  return (
    <Select<T>
      allowClear
      aria-label={props.label}
      placeholder={props.placeholder}
      style={{ width: 200 }}
      value={props.value}
      onChange={(value?: T) => props.onChange(value)}
      options={props.options}
    />
  );
}

/**
 * The qualification tasks the gaps of the assessments raised, each accepted (a study follows)
 * or dismissed with a justification, both signed. `evaluationId` fixes the assessment.
 */
export function TasksTable({ evaluationId }: { evaluationId?: number }) {
  const { formatDay } = useDateFormat();
  const permissions = usePermissions();
  const [filter, setFilter] = useState<TaskFilter>({ evaluationId, status: 'Open' });
  const [page, setPage] = useState({ pageNumber: 1, pageLimit: 10 });
  const tasks = useTasks(filter, page);
  // The assessments, to name and choose them (the latest hundred).
  const assessments = useAssessments(
    { pageNumber: 1, pageLimit: 100 },
    permissions.can('FacilityCleaningEvaluation', 'Get'),
  );
  const numbers = new Map(assessments.data?.cleaningAssessments.map((a) => [a.id, a.number]) ?? []);
  const choose = (next: TaskFilter) => {
    setFilter(next);
    setPage((current) => ({ ...current, pageNumber: 1 }));
  };

  return (
    <Flex vertical gap="small">
      <Space wrap>
        {evaluationId === undefined ? (
          <FilterSelect
            label="Assessment"
            placeholder="Every assessment"
            value={filter.evaluationId}
            onChange={(value) => choose({ ...filter, evaluationId: value })}
            options={[...numbers].map(([id, number]) => ({ value: id, label: number }))}
          />
        ) : null}
        <FilterSelect
          label="Task status"
          placeholder="Every status"
          value={filter.status}
          onChange={(value) => choose({ ...filter, status: value })}
          options={TASK_STATUSES.map((status) => ({ value: status, label: status }))}
        />
      </Space>
      {tasks.isError ? <Alert type="error" showIcon title={tasks.error.message} /> : null}
      <Table<TQualificationTask>
        aria-label="Qualification tasks"
        size="small"
        rowKey="id"
        loading={tasks.isFetching}
        dataSource={tasks.data?.qualificationTasks ?? []}
        locale={{
          emptyText: filter.status === 'Open' ? 'No open qualification tasks.' : 'No tasks.',
        }}
        pagination={{
          current: page.pageNumber,
          pageSize: page.pageLimit,
          total: tasks.data?.total ?? 0,
          showSizeChanger: true,
          onChange: (pageNumber, pageLimit) => setPage({ pageNumber, pageLimit }),
        }}
        columns={[
          ...(evaluationId === undefined
            ? [
                {
                  title: 'Assessment',
                  dataIndex: 'evaluationId',
                  render: (id: number) => (
                    <Link to={`/cleaning-assessments/${id}`}>
                      {numbers.get(id) ?? NAME_PENDING}
                    </Link>
                  ),
                },
              ]
            : []),
          { title: 'Product', dataIndex: 'product' },
          { title: 'Train', dataIndex: 'train' },
          {
            title: 'Gap',
            dataIndex: 'gap',
            render: (gap: TQualificationTask['gap']) => COVERAGE_LABELS[gap],
          },
          { title: 'Proposed study', dataIndex: 'proposedStudyType' },
          { title: 'Scope', dataIndex: 'scope', ellipsis: true },
          { title: 'Due', dataIndex: 'dueDate', render: (date: string) => formatDay(date) },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (status: Status) => <Tag color={STATUS_COLOURS[status]}>{status}</Tag>,
          },
          {
            title: 'Decision',
            key: 'decision',
            render: (_: unknown, task: TQualificationTask) => <TaskDecision task={task} />,
          },
        ]}
      />
    </Flex>
  );
}
