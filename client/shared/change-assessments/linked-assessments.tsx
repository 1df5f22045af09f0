import { Space } from 'antd';
import { Link } from 'react-router';
import type { TChangeAssessmentLink } from '#core/schemas/change-assessments.schemas.ts';
import type { EntityRecord } from '../master-data/entity-api.ts';
import { ChangeStatusTag } from './ChangeStatusTag.tsx';

/** The assessments a moc read lists (README: the moc register); none from an older server. */
export function linkedAssessmentsOf(record: EntityRecord): TChangeAssessmentLink[] {
  const linked = record.changeAssessments;
  return Array.isArray(linked) ? (linked as TChangeAssessmentLink[]) : [];
}

function AssessmentLinks({ items }: { items: readonly TChangeAssessmentLink[] }) {
  if (items.length === 0) return <span>—</span>;
  return (
    <Space orientation="vertical" size={2}>
      {items.map((item) => (
        <Space key={item.id} size={4}>
          <Link to={`/change-control/${item.id}`} title={item.title}>
            {item.number}
          </Link>
          <ChangeStatusTag status={item.changeStatus} />
        </Space>
      ))}
    </Space>
  );
}

/** The moc register's column: the change assessments of each record, with links to them. */
export const linkedAssessmentsColumn = {
  key: 'changeAssessments',
  title: 'Change assessments',
  render: (_: unknown, record: EntityRecord) => (
    <AssessmentLinks items={linkedAssessmentsOf(record)} />
  ),
};
