import { Form, Input } from 'antd';

interface ReasonFieldProps {
  /** 'Reason' in dialogs; forms that save a page of settings say 'Reason for change'. */
  label?: string;
  rows?: number;
}

/**
 * The reason every change, archive and restore carries (spec §5; EU GMP Annex 11 §9): required,
 * not blank, and written to the audit trail with the change.
 */
export function ReasonField({ label = 'Reason', rows = 2 }: ReasonFieldProps) {
  return (
    <Form.Item
      label={label}
      name="reason"
      rules={[{ required: true, whitespace: true, message: 'A reason is required' }]}
    >
      <Input.TextArea autoSize={{ minRows: rows, maxRows: 6 }} maxLength={1000} showCount />
    </Form.Item>
  );
}
