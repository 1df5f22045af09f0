import { Typography } from 'antd';
import { auditFieldChanges, type AuditNames, type AuditRowLike } from '#core/audit/audit-format.ts';
import { useDateFormat } from '../use-date-format.ts';

/** Each recorded field of an audit row: its label, then "old → new" (or the one value there is). */
export function AuditChanges({ row, names }: { row: AuditRowLike; names: AuditNames }) {
  const { formatDateTime } = useDateFormat();
  const changes = auditFieldChanges(row, { names, formatDateTime });
  if (changes.length === 0) return null;
  return (
    <ul className="audit-changes" style={{ margin: 0, paddingLeft: 16, fontSize: 12 }}>
      {changes.map((change) => (
        <li key={change.field}>
          <Typography.Text strong style={{ fontSize: 12 }}>
            {change.label}:
          </Typography.Text>{' '}
          {change.before && change.after
            ? `${change.before} → ${change.after}`
            : change.before || change.after}
        </li>
      ))}
    </ul>
  );
}
