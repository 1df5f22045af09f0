import { Form, Input } from 'antd';

/** Every change carries a reason (spec §5; EU GMP Annex 11 §9); it goes into the audit trail. */
export function ReasonField() {
  return (
    <Form.Item
      label="Reason for change"
      name="reason"
      rules={[{ required: true, whitespace: true, message: 'A reason is required' }]}
    >
      <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={1000} />
    </Form.Item>
  );
}
