import { Button, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { logout, keepSessionAlive } from '../api/auth-api.ts';
import { SESSION_EXPIRED_WARNING } from '../api/http-error-handler.ts';
import { showWarning } from '../api/warning-message.ts';
import { endSession } from '../account/LogoutPage.tsx';
import { idleState, storeIdleTimeout, type IdleState } from '../session/idle-clock.ts';
import { getSessionSnapshot, getToken, interruptSession } from '../session/session-store.ts';
import { useSession } from '../session/use-session.ts';

function minutesAndSeconds(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * A few minutes before the server would end an idle session, a warning with "Stay signed in",
 * which really extends the session on the server. Typing into a form calls no server, so without
 * it a long form could outlive its session. Left alone, the session ends here as on the server,
 * and the page stays for signing in again.
 */
/** The idle time ran out: the session ends here as it does on the server, the page stays. */
function endIdleSession(): void {
  const token = getToken();
  if (!interruptSession('expired')) return;
  showWarning(SESSION_EXPIRED_WARNING);
  void logout(token).catch(() => undefined);
}

export function IdleWarning() {
  const navigate = useNavigate();
  const { isSignedIn } = useSession();
  const [idle, setIdle] = useState<IdleState>(idleState);
  const [isExtending, setExtending] = useState(false);

  // Learns the timeout with each sign-in; opening the application counts as activity anyway.
  useEffect(() => {
    if (!isSignedIn) return;
    keepSessionAlive()
      .then((status) => storeIdleTimeout(status.idleTimeoutSeconds))
      .catch(() => undefined);
  }, [isSignedIn]);

  useEffect(() => {
    const timer = window.setInterval(() => {
      const now = idleState();
      setIdle(now);
      if (getSessionSnapshot().isSignedIn && now.msLeft !== null && now.msLeft <= 0) {
        endIdleSession();
      }
    }, 1000);
    return () => window.clearInterval(timer);
  }, []);

  async function staySignedIn(): Promise<void> {
    setExtending(true);
    try {
      const status = await keepSessionAlive();
      storeIdleTimeout(status.idleTimeoutSeconds);
      setIdle(idleState());
    } catch {
      // A 401/419 has already warned and ended the session; the sign-in dialog takes over.
    } finally {
      setExtending(false);
    }
  }

  const isOpen = isSignedIn && idle.isWarning && (idle.msLeft ?? 0) > 0;
  return (
    <Modal
      open={isOpen}
      title="Your session is about to end"
      closable={false}
      maskClosable={false}
      keyboard={false}
      footer={[
        <Button key="logout" onClick={() => void endSession(navigate)}>
          Logout
        </Button>,
        <Button key="stay" type="primary" loading={isExtending} onClick={staySignedIn}>
          Stay signed in
        </Button>,
      ]}
    >
      <p>
        You have been inactive for a while. For security, you will be signed out in{' '}
        <strong>{minutesAndSeconds(idle.msLeft ?? 0)}</strong>. What you have entered on this page
        is kept.
      </p>
    </Modal>
  );
}
