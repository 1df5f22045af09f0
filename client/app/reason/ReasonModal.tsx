import { Form, Modal, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { showSaveError, validValues } from '../../api/form-errors.ts';
import { ReasonField } from '../../app/reason/ReasonField.tsx';

export interface ReasonValues {
  reason: string;
  [extra: string]: unknown;
}

interface ReasonModalProps {
  /** Default true: a caller that mounts the dialog only while it is asked leaves it out. */
  open?: boolean;
  title: string;
  okText: string;
  /** What the reason is for, shown above the field. */
  description?: ReactNode;
  /** More to read or decide before the reason (an archive's impact on the limits). */
  children?: ReactNode;
  /** Form fields asked with the reason, whose values come with it (e.g. a force-delete box). */
  extra?: ReactNode;
  danger?: boolean;
  /** False keeps the action disabled (a required confirmation not yet given). */
  canSubmit?: boolean;
  /**
   * Runs the action with the trimmed reason. A rejection keeps the dialog open with the reason
   * typed, and the dialog shows the refusal; then it closes.
   */
  onSubmit: (values: ReasonValues) => Promise<unknown>;
  /**
   * The caller shows what went wrong and closes the dialog itself (through `open`) when the
   * action is done: a screen whose save has outcomes of its own (a version conflict to reload).
   */
  managedByCaller?: boolean;
  onClose: () => void;
}

/** The one dialog that asks why before an archive, restore, delete or change is made. */
export function ReasonModal(props: ReasonModalProps) {
  const { open = true, canSubmit = true, onSubmit, onClose } = props;
  const [form] = Form.useForm<ReasonValues>();
  const [busy, setBusy] = useState(false);

  async function submit(): Promise<void> {
    if (!canSubmit) return;
    const values = await validValues(form);
    if (!values) return;
    setBusy(true);
    try {
      await onSubmit({ ...values, reason: values.reason.trim() });
      form.resetFields();
      if (!props.managedByCaller) onClose();
    } catch (error) {
      if (!props.managedByCaller) showSaveError(error, form);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      title={props.title}
      okText={props.okText}
      okButtonProps={{ danger: props.danger ?? false, disabled: !canSubmit }}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      {props.description ? <Typography.Paragraph>{props.description}</Typography.Paragraph> : null}
      {props.children}
      <Form form={form} layout="vertical" name="reason-form" preserve={false}>
        {props.extra}
        <ReasonField rows={3} />
      </Form>
    </Modal>
  );
}
