import { Form, Input, Modal, Select } from 'antd';
import type { FormInstance } from 'antd';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { showSaveError } from '../../api/form-errors.ts';
import { useDepartmentOptions } from './users-api.ts';

interface AdminFormModalProps<V> {
  form: FormInstance<V>;
  /** Editing a saved record: the change then takes a reason (spec §5). */
  isEdit: boolean;
  title: string;
  okText: string;
  width?: number;
  initialValues: Partial<V>;
  /** Saves the form; a refusal keeps the modal open with the server's messages on the fields. */
  onSave: (values: V) => Promise<void>;
  onClose: () => void;
  children: ReactNode;
}

/** The add/edit form of an administration list (departments, operators, roles, users). */
export function AdminFormModal<V>(props: AdminFormModalProps<V>) {
  const { form, onSave, onClose } = props;
  const [isSaving, setSaving] = useState(false);

  async function submit(): Promise<void> {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await onSave(values);
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
      width={props.width}
      title={props.title}
      okText={props.okText}
      okButtonProps={{ loading: isSaving }}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} initialValues={props.initialValues}>
        {props.children}
        {props.isEdit && (
          <Form.Item
            label="Reason"
            name="reason"
            rules={[{ required: true, whitespace: true, message: 'A reason is required' }]}
          >
            <Input.TextArea rows={2} maxLength={1000} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/** The optional department of a person (operator or user). */
export function DepartmentField() {
  const departments = useDepartmentOptions();
  return (
    <Form.Item label="Department" name="departmentId">
      <Select
        allowClear
        loading={departments.isPending}
        options={(departments.data ?? []).map((d) => ({ label: d.name, value: d.id }))}
      />
    </Form.Item>
  );
}

/** The first and last name of a person (operator or user). */
export function PersonNameFields() {
  return (
    <>
      <Form.Item
        label="First Name"
        name="firstName"
        rules={[{ required: true, whitespace: true, message: 'Please enter the first name' }]}
      >
        <Input />
      </Form.Item>
      <Form.Item
        label="Last Name"
        name="lastName"
        rules={[{ required: true, whitespace: true, message: 'Please enter the last name' }]}
      >
        <Input />
      </Form.Item>
    </>
  );
}
