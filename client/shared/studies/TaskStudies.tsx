import { Space } from 'antd';
import { Link } from 'react-router';
import type { TQualificationTask } from '#core/schemas/cleaning-assessments.schemas.ts';
import { StartStudyButton } from './StartStudyButton.tsx';
import { canStartStudyFor, studyRoute } from './study-format.ts';
import { StudyOutcomeTag } from './StudyOutcomeTag.tsx';

/** An accepted task's studies, each with its outcome, and a way to start one (again after a failure). */
export function TaskStudies({ task }: { task: TQualificationTask }) {
  return (
    <Space size={4} wrap>
      {task.studies.map((study) => (
        <Space key={study.id} size={2}>
          <Link to={studyRoute(study.id)}>{study.number}</Link>
          <StudyOutcomeTag outcome={study.outcome} />
        </Space>
      ))}
      {canStartStudyFor(task.studies) ? <StartStudyButton task={task} /> : null}
    </Space>
  );
}
