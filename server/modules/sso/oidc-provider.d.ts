// oidc-provider ships no types (they live in @types/oidc-provider); the tests use this much of it.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Account {
    accountId: string;
    claims: () => Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(
      issuer: string,
      configuration: {
        clients: Record<string, unknown>[];
        claims?: Record<string, string[]>;
        findAccount: (ctx: unknown, id: string) => Account | Promise<Account>;
        pkce?: { required: () => boolean };
        conformIdTokenClaims?: boolean;
        features?: Record<string, { enabled: boolean }>;
      },
    );
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
