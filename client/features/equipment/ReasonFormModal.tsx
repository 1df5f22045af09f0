import { Alert, Form, Input, Modal } from 'antd';
import type { FormInstance } from 'antd';
import { useState } from 'react';
import type { ReactNode } from 'react';

interface ReasonFormModalProps<V extends { reason: string }> {
  form: FormInstance<V>;
  /** The form's name (ids of its fields are derived from it). */
  name: string;
  title: string;
  okText: string;
  initialValues: Partial<V>;
  /** Resolves when saved; a rejection keeps the modal open with the error's message shown. */
  onSave: (values: V) => Promise<void>;
  onCancel: () => void;
  children: ReactNode;
}

/**
 * A form in a modal whose change takes a reason (spec §5): the reason field closes the form,
 * and the server's refusal is shown above the fields.
 */
export function ReasonFormModal<V extends { reason: string }>(props: ReasonFormModalProps<V>) {
  const { form, onSave } = props;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(): Promise<void> {
    const values = await form.validateFields();
    setBusy(true);
    try {
      await onSave({ ...values, reason: values.reason.trim() });
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      title={props.title}
      okText={props.okText}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={props.onCancel}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name={props.name} initialValues={props.initialValues}>
        {problem ? <Alert type="error" title={problem} /> : null}
        {props.children}
        <Form.Item
          name="reason"
          label="Reason"
          rules={[{ required: true, whitespace: true, message: 'A reason is required' }]}
        >
          <Input.TextArea rows={2} maxLength={1000} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
