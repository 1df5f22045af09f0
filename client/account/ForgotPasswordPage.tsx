import { Button, Form, Input, notification } from 'antd';
import { useState } from 'react';
import { AccountLink, navigateTo } from './account-navigation.tsx';
import { isApiError } from '../api/api-error.ts';
import { forgotPassword } from '../api/auth-api.ts';
import { FORGOT_FAILED_TITLE, loginErrorMessage, RESET_LINK_SENT } from './account-messages.ts';
import { AccountLayout } from './AccountLayout.tsx';
import { followUrl } from './follow-url.ts';

interface ForgotForm {
  username: string;
  secretKey?: string;
}

function failureDescription(error: unknown): string {
  // Spec §8: the server message; catalogue texts where the server sent a bare name.
  return isApiError(error) && error.message ? error.message : loginErrorMessage(error);
}

/**
 * Account recovery. Users with an e-mail get a link by mail; users with only an employee ID
 * prove themselves with the secret key an administrator gave them and go straight to the reset.
 */
export function ForgotPasswordPage() {
  const navigate = navigateTo;
  const [needsSecretKey, setNeedsSecretKey] = useState(false);
  const [isSubmitting, setSubmitting] = useState(false);

  async function onFinish({ username, secretKey }: ForgotForm): Promise<void> {
    setSubmitting(true);
    try {
      const answer = needsSecretKey
        ? await forgotPassword({ username: username.trim(), secretKey, verifyToken: true })
        : await forgotPassword({ username: username.trim() });
      if (needsSecretKey && answer.result) {
        followUrl(answer.result, navigate);
      } else if (answer.isEmail) {
        notification.success({
          title: RESET_LINK_SENT.title,
          description: RESET_LINK_SENT.description,
        });
      } else if (answer.hasToken) {
        setNeedsSecretKey(true);
      } else {
        notification.error({
          title: FORGOT_FAILED_TITLE,
          description:
            answer.result ??
            'No e-mail address or secret key is set for this user. Please contact your administrator.',
        });
      }
    } catch (error) {
      notification.error({ title: FORGOT_FAILED_TITLE, description: failureDescription(error) });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AccountLayout title="Retrieve Access">
      <Form<ForgotForm> layout="vertical" requiredMark={false} onFinish={onFinish}>
        <Form.Item
          label="Email/Employee ID"
          name="username"
          rules={[
            {
              required: true,
              whitespace: true,
              message: 'Please enter your E-mail or Employee ID!',
            },
          ]}
        >
          <Input disabled={needsSecretKey} autoComplete="username" autoFocus />
        </Form.Item>
        {needsSecretKey ? (
          <Form.Item
            label="Secret Key"
            name="secretKey"
            rules={[{ required: true, message: 'Please enter a Secret Key' }]}
          >
            <Input.Password autoComplete="one-time-code" autoFocus />
          </Form.Item>
        ) : null}
        <Button type="primary" htmlType="submit" block loading={isSubmitting}>
          {needsSecretKey ? 'Reset Password' : 'Identify Me'}
        </Button>
      </Form>
      <nav className="account-links" aria-label="Account">
        <AccountLink to="/sign-in">Already a User? Sign In</AccountLink>
      </nav>
    </AccountLayout>
  );
}
