import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { showWarning } from '../api/warning-message.ts';
import { loginErrorMessage } from '../account/account-messages.ts';
import { endSession } from '../account/LogoutPage.tsx';
import { leaveForSignIn } from '../account/sign-in-again.ts';
import { signInAndStore } from '../account/sign-in.ts';
import { getCachedFeatures } from '../session/session-store.ts';
import { useSession } from '../session/use-session.ts';

/**
 * After a 401 or 419 the page stays where it is, with whatever the user typed, and the user
 * signs in again over it. Only the same user continues here; anyone else signs in afresh.
 */
export function SignInAgainModal() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { ended, user, currentFacilityId } = useSession();
  const [isSubmitting, setSubmitting] = useState(false);
  if (!ended || !user || currentFacilityId === null) return null;
  const username = user.email || user.username;
  const isSso = Boolean(getCachedFeatures()?.SSO);

  async function signInAgain({ password }: { password: string }): Promise<void> {
    setSubmitting(true);
    try {
      await signInAndStore(username, password);
      // Whatever failed while signed out loads again.
      void queryClient.invalidateQueries();
    } catch (error) {
      showWarning(loginErrorMessage(error));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Modal
      open
      title={ended === 'elsewhere' ? 'Logged Out' : 'Session Expired'}
      closable={false}
      maskClosable={false}
      keyboard={false}
      footer={null}
    >
      {/* The warning of the 419 or 401 has already said why; the dialog says what to do. */}
      <p>
        {ended === 'elsewhere'
          ? 'This account signed in on another device, which ended the session here.'
          : 'Your session has expired.'}{' '}
        Log in again to continue on this page; what you have entered is kept.
      </p>
      {isSso ? (
        <Button
          type="primary"
          block
          onClick={() => window.location.assign(leaveForSignIn(currentFacilityId))}
        >
          Log In
        </Button>
      ) : (
        <Form<{ username: string; password: string }>
          layout="vertical"
          requiredMark={false}
          initialValues={{ username }}
          onFinish={signInAgain}
        >
          <Form.Item label="Email/Employee ID" name="username">
            <Input disabled />
          </Form.Item>
          <Form.Item
            label="Password"
            name="password"
            rules={[{ required: true, message: 'Please input your Password!' }]}
          >
            <Input.Password autoComplete="current-password" autoFocus />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={isSubmitting}>
            Log In
          </Button>
        </Form>
      )}
      <Button type="link" onClick={() => void endSession(navigate)}>
        Sign in as a different user
      </Button>
    </Modal>
  );
}
