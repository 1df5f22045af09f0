/** What of a policy read finds its tab (GET cleaning_limit_policies gives one per residue type). */
export interface PolicyOfType {
  id: number;
  residueType: string;
}

/**
 * The tab of the policies screen that shows the CleaningLimitPolicy record `documentId`: its
 * residue type's tab, or the microbial one, the only other policy of that document type.
 */
export function policyTabFor(documentId: number, policies: readonly PolicyOfType[]): string {
  return policies.find((policy) => policy.id === documentId)?.residueType ?? 'microbial';
}
