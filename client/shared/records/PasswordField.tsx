import { Form, Input } from 'antd';

/**
 * The signer's own password, re-entered for every electronic signature (21 CFR Part 11
 * §11.200). The field is named `password`, so a wrong one (422 on `password`) shows under it.
 */
export function PasswordField() {
  return (
    <Form.Item
      label="Password"
      name="password"
      rules={[{ required: true, message: 'Enter your password to sign' }]}
    >
      <Input.Password autoComplete="current-password" />
    </Form.Item>
  );
}
