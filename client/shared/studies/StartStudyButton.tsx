import { Button } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { TQualificationTask } from '#core/schemas/cleaning-assessments.schemas.ts';
import { usePermissions } from '../permissions.ts';
import { NewStudyModal } from './NewStudyModal.tsx';
import { studyRoute } from './study-format.ts';

/**
 * An accepted qualification task's 'Start study': the New study modal with the task as its
 * origin and the task's proposed study type.
 */
export function StartStudyButton({ task }: { task: TQualificationTask }) {
  const navigate = useNavigate();
  const permissions = usePermissions();
  const [open, setOpen] = useState(false);
  if (!permissions.can('QualificationTask', 'Add')) return null;
  return (
    <>
      <Button size="small" type="link" style={{ padding: 0 }} onClick={() => setOpen(true)}>
        Start study
      </Button>
      {open ? (
        <NewStudyModal
          defaults={{
            title: `${task.proposedStudyType}: ${task.product} on ${task.train}`,
            studyType: task.proposedStudyType,
            origin: { kind: 'qualificationTask', id: task.id },
          }}
          onCreated={(study) => void navigate(studyRoute(study.id))}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}
