import { Descriptions, Drawer, Empty, List, Skeleton, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { COVERAGE_LABELS, type TCoverageCell } from '#core/schemas/cleaning-assessments.schemas.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { useTrainTasks } from '#client/shared/cleaning-assessments/cleaning-assessments-api.ts';
import { COVERAGE_COLOURS, isGap } from './coverage-matrix.ts';
import { TaskDecision } from './TaskDecision.tsx';

/** The master-data list of historical studies (a declared record), with one open. */
export const historicalStudyLink = (id: number) => `/master-data/historical-study?record=${id}`;

/** The qualification task this gap raised, to decide here. */
function GapTasks({ cell, evaluationId }: { cell: TCoverageCell; evaluationId: number }) {
  const permissions = usePermissions();
  const canSee = permissions.can('QualificationTask', 'Get');
  const tasks = useTrainTasks(cell.trainId, evaluationId, canSee);
  const { formatDay } = useDateFormat();
  if (!canSee) return null;
  const own = tasks.data?.qualificationTasks.filter((t) => t.productId === cell.productId) ?? [];
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        Qualification task
      </Typography.Title>
      {tasks.isPending ? (
        <Skeleton active paragraph={{ rows: 1 }} />
      ) : own.length === 0 ? (
        <Typography.Text type="secondary">No task for this gap.</Typography.Text>
      ) : (
        own.map((task) => (
          <Descriptions key={task.id} column={1} size="small" bordered>
            <Descriptions.Item label="Proposed study">{task.proposedStudyType}</Descriptions.Item>
            <Descriptions.Item label="Scope">{task.scope}</Descriptions.Item>
            <Descriptions.Item label="Due">{formatDay(task.dueDate)}</Descriptions.Item>
            <Descriptions.Item label="Status">{task.status}</Descriptions.Item>
            <Descriptions.Item label="Decision">
              <TaskDecision task={task} />
            </Descriptions.Item>
          </Descriptions>
        ))
      )}
    </>
  );
}

const limit = (value: number | null) => (value === null ? '—' : `${value} mg/cm²`);

/** What a coverage cell rests on: its studies, or the representative whose study covers it. */
export function EvidenceDrawer({
  cell,
  evaluationId,
  onClose,
}: {
  cell: TCoverageCell;
  /** The assessment whose matrix this is: its tasks for the cell's gap. */
  evaluationId: number;
  onClose: () => void;
}) {
  const { formatDate } = useDateFormat();
  return (
    <Drawer open title={`${cell.product} on ${cell.train}`} size={520} onClose={onClose}>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="Coverage">
          <Tag color={COVERAGE_COLOURS[cell.state]}>{COVERAGE_LABELS[cell.state]}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label="Surface limit now">{limit(cell.currentLimit)}</Descriptions.Item>
        {cell.representative ? (
          <Descriptions.Item label="Covered through">
            {cell.representative}, the representative of its product group
          </Descriptions.Item>
        ) : null}
      </Descriptions>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {cell.state === 'representative' && cell.representative
          ? `Evidence: the studies of ${cell.representative}`
          : 'Evidence'}
      </Typography.Title>
      {cell.evidence.length === 0 ? (
        <Empty
          description={
            cell.state === 'representative'
              ? `The studies of ${cell.representative ?? 'the representative'} cover this product.`
              : 'No study of this product on this train.'
          }
        />
      ) : (
        <List
          size="small"
          bordered
          dataSource={cell.evidence}
          renderItem={(evidence) => (
            <List.Item>
              <List.Item.Meta
                title={
                  evidence.kind === 'historicalStudy' ? (
                    <Link to={historicalStudyLink(evidence.id)}>{evidence.name}</Link>
                  ) : (
                    evidence.name
                  )
                }
                description={
                  <>
                    {evidence.kind === 'historicalStudy' ? 'Historical study' : 'Study'}
                    {evidence.date ? `, completed ${formatDate(evidence.date)}` : ''}; judged
                    against {limit(evidence.limitAtStudy)}
                  </>
                }
              />
            </List.Item>
          )}
        />
      )}
      {isGap(cell.state) ? <GapTasks cell={cell} evaluationId={evaluationId} /> : null}
    </Drawer>
  );
}
