import { Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import type { ReactNode } from 'react';

interface ReasonModalProps {
  open: boolean;
  title: string;
  okText: string;
  /** What the reason is for, shown above the field. */
  description?: ReactNode;
  danger?: boolean;
  /** More to read or decide before the reason (an archive's impact on the limits). */
  children?: ReactNode;
  /** False keeps the action disabled (a required confirmation not yet given). */
  canSubmit?: boolean;
  /** Resolves when the action is done; a rejection keeps the modal open (the caller shows why). */
  onSubmit: (reason: string) => Promise<void>;
  onCancel: () => void;
}

/** Spec §5: a reason must accompany archive, delete and edit actions (EU GMP Annex 11 §9). */
export function ReasonModal({
  open,
  title,
  okText,
  description,
  danger,
  children,
  canSubmit = true,
  onSubmit,
  onCancel,
}: ReasonModalProps) {
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);

  async function submit(): Promise<void> {
    if (!canSubmit) return;
    const { reason } = await form.validateFields();
    setBusy(true);
    try {
      await onSubmit(reason.trim());
      form.resetFields();
    } catch {
      // The caller has shown what went wrong; the reason stays for another try.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      okButtonProps={{ danger: danger ?? false, disabled: !canSubmit }}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onCancel}
      destroyOnHidden
    >
      {description ? <Typography.Paragraph>{description}</Typography.Paragraph> : null}
      {children}
      <Form form={form} layout="vertical" name="reason-form" onFinish={() => void submit()}>
        <Form.Item
          name="reason"
          label="Reason"
          rules={[{ required: true, whitespace: true, message: 'A reason is required' }]}
        >
          <Input.TextArea autoFocus rows={3} maxLength={1000} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
