import type { RecordDecl } from '../record-decl.ts';

/**
 * A facility's limit policy, one per residue type and the microbial one: a controlled rule whose
 * row keeps its working content (`policy`), written by server/modules/policies through the
 * controlled-rule writer; the approved version is the one the limits enforce.
 */
export const cleaningLimitPoliciesDecl = {
  key: 'cleaningLimitPolicies',
  label: 'Cleaning limit policy',
  table: 'cleaning_limit_policies',
  // The microbial policy's changes are audited under MicrobialCleaningLimitPolicy.
  domain: 'CleaningPolicy',
  controlled: { documentType: 'CleaningLimitPolicy' },
} as const satisfies RecordDecl;
