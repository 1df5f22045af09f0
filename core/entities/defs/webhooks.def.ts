import type { RecordDecl } from '../record-decl.ts';

/**
 * A facility's webhooks (issue 33): where its events are posted and with which secret they are
 * signed. Versioned and audited like any record; the secret is kept encrypted and out of the
 * history rows.
 */
export const webhooksDecl = {
  key: 'webhooks',
  label: 'Webhook',
  table: 'webhooks',
  domain: 'Webhook',
} as const satisfies RecordDecl;
