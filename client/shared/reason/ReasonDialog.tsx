import { Form, Input, Modal, Typography } from 'antd';
import type { FormInstance } from 'antd';
import { useState, type ReactNode } from 'react';
import { showSaveError } from '#client/api/form-errors.ts';
import { validatedValues } from '../validated-values.ts';
import { closeAsking } from './confirm-discard.ts';

export interface ReasonValues {
  reason: string;
  [extra: string]: unknown;
}

interface ReasonFieldProps {
  /** 'Reason' in dialogs; forms that save a page of settings say 'Reason for change'. */
  label?: string;
  rows?: number;
}

/**
 * The reason every change, archive and restore carries (spec §5; EU GMP Annex 11 §9): required,
 * not blank, and written to the audit trail with the change. The dialog asks it; a page that
 * saves a whole form of settings in place carries it as the form's last field.
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

interface ReasonDialogProps<V> {
  /** Default true: a caller that mounts the dialog only while it is asked leaves it out. */
  open?: boolean;
  title: string;
  okText: string;
  width?: number;
  danger?: boolean;
  /** False keeps the action disabled (a required confirmation not yet given). */
  canSubmit?: boolean;
  /** The caller's form, when it reads or sets the fields; without it the dialog keeps its own. */
  form?: FormInstance<V>;
  /** The form's name (ids of its fields are derived from it). */
  name?: string;
  initialValues?: Partial<V>;
  /** What the reason is for, shown above the form. */
  description?: ReactNode;
  /** More to read or decide before the form (an archive's impact on the limits). */
  intro?: ReactNode;
  /** Default true. A create has nothing to justify yet; a change to a saved record has (spec §5). */
  askReason?: boolean;
  /**
   * Runs the action with the values, the reason trimmed. A rejection keeps the dialog open with
   * what was typed and shows the refusal on the fields; then it closes.
   */
  onSubmit: (values: V) => Promise<unknown>;
  /** A version conflict then keeps the form open with what was typed while the caller reloads. */
  onConflict?: () => void;
  /**
   * The caller shows what went wrong and closes the dialog itself (through `open`) when the
   * action is done: a screen whose save has outcomes of its own (a version conflict to reload).
   */
  managedByCaller?: boolean;
  onClose: () => void;
  /** Fields asked with the reason, whose values come with it. */
  children?: ReactNode;
}

/** The one dialog for a change that needs a why: an add or edit form, an archive, a restore. */
export function ReasonDialog<V = ReasonValues>(props: ReasonDialogProps<V>) {
  const { open = true, canSubmit = true, askReason = true, onSubmit, onClose } = props;
  const [ownForm] = Form.useForm<V>();
  const form = props.form ?? ownForm;
  const [isBusy, setBusy] = useState(false);
  // Modal.confirm bound to the app's context (theme, locale) rather than the static one.
  const [modal, modalHolder] = Modal.useModal();

  async function submit(): Promise<void> {
    if (!canSubmit || isBusy) return;
    const values = await validatedValues(form);
    if (values === null) return;
    setBusy(true);
    try {
      const reason = (values as { reason?: unknown }).reason;
      await onSubmit(typeof reason === 'string' ? { ...values, reason: reason.trim() } : values);
      form.resetFields();
      if (!props.managedByCaller) onClose();
    } catch (error) {
      if (!props.managedByCaller) showSaveError(error, form, props.onConflict);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      width={props.width}
      title={props.title}
      okText={props.okText}
      okButtonProps={{ danger: props.danger ?? false, disabled: !canSubmit }}
      confirmLoading={isBusy}
      onOk={() => void submit()}
      onCancel={() => closeAsking(modal.confirm, form, onClose)}
      destroyOnHidden
    >
      {modalHolder}
      {props.description ? <Typography.Paragraph>{props.description}</Typography.Paragraph> : null}
      {props.intro}
      <Form
        form={form}
        name={props.name ?? 'reason-form'}
        layout="vertical"
        preserve={false}
        initialValues={props.initialValues}
        // Enter in a field, or a control that calls form.submit(), saves like the OK button.
        onFinish={() => void submit()}
      >
        {props.children}
        {askReason ? <ReasonField rows={props.children ? 2 : 3} /> : null}
      </Form>
    </Modal>
  );
}
