import { Form, Input, Modal } from 'antd';
import { useState, type ReactNode } from 'react';
import { showSaveError } from '../../api/form-errors.ts';

export interface ReasonValues {
  reason: string;
  [extra: string]: unknown;
}

interface ReasonModalProps {
  title: string;
  okText: string;
  /** Extra fields shown above the reason, e.g. a force-delete checkbox. */
  extra?: ReactNode;
  danger?: boolean;
  onSubmit: (values: ReasonValues) => Promise<unknown>;
  onClose: () => void;
}

/** Every archive, delete and edit action asks why (spec §5; EU GMP Annex 11 §9). */
export function ReasonModal({ title, okText, extra, danger, onSubmit, onClose }: ReasonModalProps) {
  const [form] = Form.useForm<ReasonValues>();
  const [isSaving, setSaving] = useState(false);

  async function submit(): Promise<void> {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await onSubmit(values);
      onClose();
    } catch (error) {
      showSaveError(error, form);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open
      title={title}
      okText={okText}
      okButtonProps={{ danger: Boolean(danger), loading: isSaving }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        {extra}
        <Form.Item
          label="Reason"
          name="reason"
          rules={[{ required: true, whitespace: true, message: 'A reason is required' }]}
        >
          <Input.TextArea rows={3} maxLength={1000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
