import { Form, Input, Select } from 'antd';
import { useDepartmentOptions } from './users-api.ts';

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
