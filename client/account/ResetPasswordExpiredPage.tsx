import { Button, Form, Input, notification } from 'antd';
import { useState } from 'react';
import { AccountLink } from './account-navigation.tsx';
import { forgotPassword } from '../api/auth-api.ts';
import { RESET_LINK_SENT } from './account-messages.ts';
import { AccountLayout } from './AccountLayout.tsx';

/**
 * A fresh reset link. The notice is the same whatever the server answers, so the screen cannot
 * be used to find out which addresses belong to users.
 */
export function ResetPasswordExpiredPage() {
  const [isSubmitting, setSubmitting] = useState(false);

  async function onFinish({ email }: { email: string }): Promise<void> {
    setSubmitting(true);
    await forgotPassword({ username: email.trim() }).catch(() => undefined);
    setSubmitting(false);
    notification.success({
      title: RESET_LINK_SENT.title,
      description: RESET_LINK_SENT.description,
    });
  }

  return (
    <AccountLayout title="Link has expired!" subtitle="You will need a fresh link">
      <Form<{ email: string }> layout="vertical" requiredMark={false} onFinish={onFinish}>
        <Form.Item
          label="Your Email"
          name="email"
          rules={[{ required: true, type: 'email', message: 'Please input your email!' }]}
        >
          <Input type="email" autoComplete="email" autoFocus />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={isSubmitting}>
          Get a fresh link
        </Button>
      </Form>
      <nav className="account-links" aria-label="Account">
        <AccountLink to="/sign-in">Already a User? Sign In</AccountLink>
      </nav>
    </AccountLayout>
  );
}
