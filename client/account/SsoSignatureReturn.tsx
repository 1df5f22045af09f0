import { Result } from 'antd';
import { useEffect, useState } from 'react';
import { SSO_SIGNATURE_CHANNEL, type SsoSignatureMessage } from './sso-signature-channel.ts';

/**
 * Where the provider's window lands after a signer signed in again for a signature: hands the
 * proof (or the refusal) to the sign dialog that opened it, in another window of this browser,
 * and closes itself.
 */
export function SsoSignatureReturn() {
  const [error] = useState(() => new URLSearchParams(window.location.search).get('error'));
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    const proof = query.get('proof');
    const message: SsoSignatureMessage = proof ? { proof } : { error: error ?? 'No answer' };
    const channel = new BroadcastChannel(SSO_SIGNATURE_CHANNEL);
    channel.postMessage(message);
    channel.close();
    // The proof must not stay in this window's address or history.
    window.history.replaceState(null, '', '/sso-signature');
    if (proof) window.close();
  }, [error]);
  return error ? (
    <Result status="warning" title="Not signed" subTitle={error} />
  ) : (
    <Result status="success" title="Signed in again" subTitle="You can close this window." />
  );
}
