import { Button, Form, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import {
  SSO_SIGNATURE_CHANNEL,
  type SsoSignatureMessage,
} from '#client/account/sso-signature-channel.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { useCurrentUser } from '../session-queries.ts';
import { PasswordField } from './PasswordField.tsx';

/** What a signed form sends for its signer: the password, or a single sign-on proof. */
export interface SignerProofValues {
  password?: string;
  ssoProof?: string;
}

export function signerProofOf(values: SignerProofValues): SignerProofValues {
  return values.ssoProof ? { ssoProof: values.ssoProof } : { password: values.password ?? '' };
}

/**
 * How the signer re-authenticates in a signed form (21 CFR Part 11 §11.200): their password, or
 * for a single sign-on user a fresh sign-in at the provider, after which the form is signed.
 */
export function SignerProofField() {
  const me = useCurrentUser();
  if (me.data?.authType !== 'sso') return <PasswordField />;
  return (
    <Form.Item
      label="Single sign-on"
      name="ssoProof"
      rules={[{ required: true, message: 'Sign in again with single sign-on to sign' }]}
    >
      <SsoProofInput />
    </Form.Item>
  );
}

/**
 * What a form that is itself a signed act asks last (an equipment release, a site PDE override):
 * the signature's fixed meaning, what signing means (21 CFR 11.100(c)), and the signer's proof.
 */
export function SignedActFields({ meaning }: { meaning: string }) {
  return (
    <>
      <Typography.Paragraph type="secondary">
        Meaning: {meaning}. Your electronic signature is the legally binding equivalent of your
        handwritten signature.
      </Typography.Paragraph>
      <SignerProofField />
    </>
  );
}

interface SsoProofInputProps {
  value?: string;
  onChange?: (proof: string) => void;
}

function SsoProofInput({ onChange }: SsoProofInputProps) {
  const form = Form.useFormInstance();
  const [waiting, setWaiting] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const channel = useRef<BroadcastChannel | null>(null);
  useEffect(() => () => channel.current?.close(), []);

  async function signInAgain(): Promise<void> {
    setRefusal(null);
    // Opened at the click, before any await, so that no pop-up blocker stops it.
    const popup = window.open('', 'carryover-sso-signature', 'popup,width=520,height=680');
    try {
      const { url } = await apiRequest<{ url: string }>('/auth/sso/reauth', {
        method: 'POST',
        body: {},
        action: 'Signing in again',
      });
      channel.current?.close();
      const listening = new BroadcastChannel(SSO_SIGNATURE_CHANNEL);
      channel.current = listening;
      listening.onmessage = (event: MessageEvent<SsoSignatureMessage>) => {
        listening.close();
        setWaiting(false);
        if ('proof' in event.data) {
          onChange?.(event.data.proof);
          form.submit();
        } else {
          setRefusal(event.data.error);
        }
      };
      setWaiting(true);
      if (popup) popup.location.href = url;
      else window.location.assign(url);
    } catch {
      popup?.close();
      setWaiting(false);
    }
  }

  return (
    <div>
      <Typography.Paragraph type="secondary">
        Your provider asks you to sign in again; the signature follows at once.
      </Typography.Paragraph>
      <Button onClick={() => void signInAgain()} loading={waiting}>
        Sign in again and sign
      </Button>
      {refusal ? <Typography.Paragraph type="danger">{refusal}</Typography.Paragraph> : null}
    </div>
  );
}
