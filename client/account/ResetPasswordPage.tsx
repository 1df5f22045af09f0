import { Alert, Button, Form, Input, notification } from 'antd';
import { useEffect, useState } from 'react';
import { navigateTo, useAccountSearchParams } from './account-navigation.tsx';
import { isApiError } from '../api/api-error.ts';
import { checkResetLink, resetPassword } from '../api/auth-api.ts';
import type { ResetLinkResponse } from '../api/auth-types.ts';
import { resetFailureMessage } from './account-messages.ts';
import { AccountLayout } from './AccountLayout.tsx';
import { LoadingSpinner } from './LoadingSpinner.tsx';
import { PasswordChecklist } from './PasswordChecklist.tsx';
import { passwordChecklist } from './password-rules.ts';

interface ResetForm {
  username: string;
  password: string;
  confirmPassword: string;
}

/** Why the user is here when the server sent them (login outcomes), rather than a mail link. */
const REASONS: Record<string, string> = {
  'first-login': 'You are signing in for the first time. Please set a password of your own.',
  expired: 'Your password has expired. Please set a new one.',
};

/**
 * Set a new password: from a reset link, a registration, or a forced change at first login or
 * on expiry (same calls; `reason` in the address says which).
 */
export function ResetPasswordPage() {
  const navigate = navigateTo;
  const params = useAccountSearchParams();
  const u = params.get('u') ?? '';
  const token = params.get('token') ?? '';
  const reason = REASONS[params.get('reason') ?? ''];
  const [link, setLink] = useState<ResetLinkResponse | null>(null);

  useEffect(() => {
    let isCurrent = true;
    const expired = () => void navigate('/reset-password-expired', { replace: true });
    if (!u || !token) {
      expired();
      return;
    }
    checkResetLink(u, token)
      .then((checked) => isCurrent && setLink(checked))
      .catch((error: unknown) => {
        if (!isCurrent) return;
        // The server refused the link (expired, spent, forged): the user needs a fresh one.
        if (isApiError(error) && error.kind === 'server') expired();
        else
          notification.error({
            title: 'Reset Password Failed',
            description: isApiError(error) ? error.message : 'The server could not be reached.',
          });
      });
    return () => {
      isCurrent = false;
    };
  }, [u, token, navigate]);

  return (
    <AccountLayout title="Welcome" subtitle="Please set a new password">
      {reason ? <Alert type="info" showIcon title={reason} className="account-alert" /> : null}
      {/* The fields show at once, so what the user types while the link is checked is kept. */}
      <ResetPasswordForm u={u} token={token} link={link} />
    </AccountLayout>
  );
}

interface ResetPasswordFormProps {
  u: string;
  token: string;
  /** The checked link; null while the check runs (the rules and the user name come with it). */
  link: ResetLinkResponse | null;
}

function ResetPasswordForm({ u, token, link }: ResetPasswordFormProps) {
  const navigate = navigateTo;
  const [form] = Form.useForm<ResetForm>();
  const [isSubmitting, setSubmitting] = useState(false);
  const password = Form.useWatch('password', form) ?? '';
  const confirmPassword = Form.useWatch('confirmPassword', form) ?? '';
  const rules = link
    ? passwordChecklist(link.passwordPolicySettings, password, confirmPassword)
    : [];
  const allPass = link !== null && rules.every((rule) => rule.passes);
  const username = link?.username;

  useEffect(() => {
    if (username !== undefined) form.setFieldValue('username', username);
  }, [form, username]);

  async function onFinish(values: ResetForm): Promise<void> {
    if (!allPass) {
      notification.warning({
        title: 'Password Requirements',
        description: 'Not all password requirements met',
      });
      return;
    }
    setSubmitting(true);
    try {
      await resetPassword({
        u,
        token,
        password: values.password,
        confirmPassword: values.confirmPassword,
      });
      notification.success({
        title: 'Reset Password Successful',
        description: 'You have successfully reset your password, go ahead and login.',
      });
      void navigate('/', { replace: true });
    } catch (error) {
      notification.error({
        title: 'Reset Password Failed',
        description: resetFailureMessage(error),
      });
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Form<ResetForm> form={form} layout="vertical" requiredMark={false} onFinish={onFinish}>
      <Form.Item
        label="Email/Employee ID"
        name="username"
        rules={[{ required: true, message: 'Invalid Email/ Employee Id' }]}
      >
        <Input disabled autoComplete="username" />
      </Form.Item>
      <Form.Item
        label="Password"
        name="password"
        rules={[{ required: true, message: 'Please enter your new password!' }]}
      >
        <Input.Password autoComplete="new-password" autoFocus />
      </Form.Item>
      <Form.Item
        label="Re-enter Password"
        name="confirmPassword"
        rules={[{ required: true, message: 'Please confirm your password!' }]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      {link ? <PasswordChecklist rules={rules} /> : <LoadingSpinner label="Checking the link" />}
      <Button type="primary" htmlType="submit" block disabled={!allPass} loading={isSubmitting}>
        Complete Registration
      </Button>
    </Form>
  );
}
