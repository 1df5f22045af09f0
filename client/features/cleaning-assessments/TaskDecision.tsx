import { Button, Space, Typography } from 'antd';
import { useState } from 'react';
import type { TQualificationTask } from '#core/schemas/cleaning-assessments.schemas.ts';
import { useDateFormat } from '#client/shared/use-date-format.ts';
import { usePermissions } from '#client/shared/permissions.ts';
import { TaskDecisionDialog } from './TaskDecisionDialog.tsx';
import { TaskStudies } from '#client/shared/studies/TaskStudies.tsx';

/**
 * An open task's Accept and Dismiss; a decided one says who decided, when and why, and an
 * accepted one starts its study.
 */
export function TaskDecision({ task }: { task: TQualificationTask }) {
  const { formatDateTime } = useDateFormat();
  const permissions = usePermissions();
  const [action, setAction] = useState<'accept' | 'dismiss' | null>(null);
  if (task.status !== 'Open') {
    return (
      <Typography.Text style={{ fontSize: 12 }}>
        {task.decidedByName ?? '—'}, {formatDateTime(task.decidedAt)}
        {task.justification ? (
          <>
            <br />
            {task.justification}
          </>
        ) : null}
        {task.status === 'Accepted' ? (
          <>
            <br />
            <TaskStudies task={task} />
          </>
        ) : null}
      </Typography.Text>
    );
  }
  if (!permissions.can('QualificationTask', 'Modify')) return '—';
  return (
    <Space size={4}>
      <Button size="small" onClick={() => setAction('accept')}>
        Accept
      </Button>
      <Button size="small" danger onClick={() => setAction('dismiss')}>
        Dismiss
      </Button>
      {action ? (
        <TaskDecisionDialog task={task} action={action} onClose={() => setAction(null)} />
      ) : null}
    </Space>
  );
}
