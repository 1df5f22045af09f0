import { CheckCircleFilled, CloseCircleOutlined } from '@ant-design/icons';
import type { ChecklistRule } from './password-rules.ts';

export function PasswordChecklist({ rules }: { rules: ChecklistRule[] }) {
  return (
    <ul className="password-checklist" aria-label="Password requirements">
      {rules.map((rule) => (
        <li
          key={rule.key}
          className={rule.passes ? 'rule-passes' : 'rule-fails'}
          data-rule={rule.key}
          data-passes={rule.passes}
        >
          {rule.passes ? (
            <CheckCircleFilled aria-label="met" />
          ) : (
            <CloseCircleOutlined aria-label="not met" />
          )}{' '}
          {rule.label}
        </li>
      ))}
    </ul>
  );
}
