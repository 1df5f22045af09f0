/** The channel on which the provider's window returns a signer's fresh sign-in to the dialog. */
export const SSO_SIGNATURE_CHANNEL = 'carryover-sso-signature';

export type SsoSignatureMessage = { proof: string } | { error: string };

/** Where the server's signature callback sends the provider's window (sso.routes.ts). */
export const SSO_SIGNATURE_PATH = '/sso-signature';
