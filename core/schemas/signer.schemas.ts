import { z } from 'zod';

/**
 * How a signer re-authenticates (21 CFR 11.200(a)): a local or directory user re-enters their
 * password; a single sign-on user signs in again at the provider, whose proof stands in for it.
 */
export const ZSsoProof = z.string().trim().min(20).max(200);

export interface SignerProof {
  password?: string | undefined;
  ssoProof?: string | undefined;
}

/** Exactly one of password and ssoProof; a missing one is reported on `password`. */
export function requireSignerProof(message: string) {
  return (value: SignerProof, ctx: z.RefinementCtx) => {
    if (value.password && value.ssoProof) {
      ctx.addIssue({
        code: 'custom',
        path: ['ssoProof'],
        message: 'Sign with a password or with single sign-on, not both',
      });
    } else if (!value.password && !value.ssoProof) {
      ctx.addIssue({ code: 'custom', path: ['password'], message });
    }
  };
}

export const ZSsoReauthRequest = z.object({}).strict();
export const ZSsoReauthResponse = z.object({
  /** The provider's sign-in page, asking for a fresh authentication. */
  url: z.string(),
});
