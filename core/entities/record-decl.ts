import type { TControlledDocumentType } from '../schemas/signatures.schemas.ts';

/**
 * A lifecycle record (runs, deviations, investigations, settings…; issue 28): versioned,
 * audited and, when controlled, signed, but with calls, reads and audit values that are its
 * module's own rather than the generic record routes of an EntityDef. Its writes go through
 * the one write path (server/records/write-record.ts, or for a controlled rule kept as one JSON
 * column server/records/controlled-rule.ts): the row locked, the optimistic version
 * checked and bumped, the history row kept by the trigger, the audit row and the controlled
 * working version written in the same transaction. What is truly the record's own (a run's
 * recompute, whether its run may still change) is a hook its module gives with it.
 */
export interface RecordDecl {
  key: string;
  /** How errors name one ('Deviation 12 was not found'). */
  label: string;
  table: string;
  /** Audit trail domain. */
  domain: string;
  /** Records of a facility (`facility_id`), numbered one after another per facility (`seq`). */
  numbered?: true;
  /** A controlled record: its working content is saved as the version being built. */
  controlled?: { documentType: TControlledDocumentType };
}
