import { InfoCircleOutlined } from '@ant-design/icons';
import { Button, Form, Input, notification, Tooltip } from 'antd';
import { useState } from 'react';
import { AccountLink, navigateTo } from './account-navigation.tsx';
import { register } from '../api/auth-api.ts';
import { DEFAULT_ERROR_TITLE, loginErrorMessage } from './account-messages.ts';
import { AccountLayout } from './AccountLayout.tsx';
import { followUrl } from './follow-url.ts';

interface RegisterForm {
  username: string;
  token: string;
}

export const SECRET_KEY_HINT =
  'Secret Key is received from an Administrator to confirm it is really you';

/** First-time registration of a user without e-mail: employee ID plus the administrator's key. */
export function RegisterPage() {
  const navigate = navigateTo;
  const [isSubmitting, setSubmitting] = useState(false);

  async function onFinish({ username, token }: RegisterForm): Promise<void> {
    setSubmitting(true);
    try {
      const { redirect } = await register(username.trim(), token.trim());
      followUrl(redirect, navigate);
    } catch (error) {
      notification.error({ title: DEFAULT_ERROR_TITLE, description: loginErrorMessage(error) });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AccountLayout
      title="Welcome"
      subtitle="Help us identify you by providing the following details"
    >
      <Form<RegisterForm> layout="vertical" requiredMark={false} onFinish={onFinish}>
        <Form.Item
          label="Employee ID"
          name="username"
          rules={[{ required: true, whitespace: true, message: 'Please Employee Id of the user' }]}
        >
          <Input autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item
          label={
            // The hint shows on hover (spec §2) and is read out with the field (aria-describedby).
            <Tooltip title={SECRET_KEY_HINT}>
              <span className="label-with-hint">
                Secret Key <InfoCircleOutlined aria-hidden="true" />
              </span>
            </Tooltip>
          }
          name="token"
          rules={[{ required: true, whitespace: true, message: 'Please Enter the Secret Key' }]}
        >
          <Input.Password autoComplete="one-time-code" aria-describedby="secret-key-hint" />
        </Form.Item>
        <span id="secret-key-hint" className="visually-hidden">
          {SECRET_KEY_HINT}
        </span>
        <Button type="primary" htmlType="submit" block loading={isSubmitting}>
          Set Password
        </Button>
      </Form>
      <nav className="account-links" aria-label="Account">
        <AccountLink to="/sign-in">Already a User? Sign In</AccountLink>
      </nav>
    </AccountLayout>
  );
}
