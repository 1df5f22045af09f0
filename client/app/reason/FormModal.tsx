import { Form, Modal } from 'antd';
import type { FormInstance } from 'antd';
import { useState, type ReactNode } from 'react';
import { showSaveError, validValues } from '../../api/form-errors.ts';
import { ReasonField } from '../../app/reason/ReasonField.tsx';

interface FormModalProps<V> {
  form: FormInstance<V>;
  /** The form's name (ids of its fields are derived from it). */
  name?: string;
  title: string;
  okText: string;
  width?: number;
  initialValues: Partial<V>;
  /** A change to a saved record takes a reason (spec §5), which closes the form. */
  askReason: boolean;
  /** Saves the form; a refusal keeps the modal open with the server's messages on the fields. */
  onSave: (values: V) => Promise<unknown>;
  onClose: () => void;
  /** A version conflict then keeps the form open with what was typed while the caller reloads. */
  onConflict?: () => void;
  children: ReactNode;
}

/** An add or edit form in a modal, for the records edited in a dialog rather than a drawer. */
export function FormModal<V>(props: FormModalProps<V>) {
  const { form, onSave, onClose } = props;
  const [isSaving, setSaving] = useState(false);

  async function submit(): Promise<void> {
    const values = await validValues(form);
    if (values === undefined) return;
    setSaving(true);
    try {
      const reason = (values as { reason?: unknown }).reason;
      await onSave(typeof reason === 'string' ? { ...values, reason: reason.trim() } : values);
      onClose();
    } catch (error) {
      showSaveError(error, form, props.onConflict);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open
      width={props.width}
      title={props.title}
      okText={props.okText}
      confirmLoading={isSaving}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        name={props.name}
        layout="vertical"
        preserve={false}
        initialValues={props.initialValues}
        // Enter in a field, or a control that calls form.submit(), saves like the OK button.
        onFinish={() => void submit()}
      >
        {props.children}
        {props.askReason ? <ReasonField /> : null}
      </Form>
    </Modal>
  );
}
