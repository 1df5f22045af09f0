import { AppError } from '#core/errors/errors.ts';
import { defaultPolicy, type CleaningLimitPolicy, type ResidueType } from '#core/limits/policy.ts';
import type { Queryable } from '#server/db/db.ts';
import { versionInForce } from '#server/records/controlled.ts';
import { placeOf, policyTitle, selectRecord, type PolicyKind } from './policy-documents.ts';

export interface InForceOptions {
  /** The version approved at this moment instead of now. */
  asOf?: string | undefined;
  /**
   * 'draft': the version in progress (being built, reviewed or approved) where there is one,
   * for what-if; the approved version otherwise. Never used for a limit of record.
   */
  policy?: 'approved' | 'draft' | undefined;
}

export interface PolicyInForce<T> {
  content: T;
  versionNumber: number;
  status: string;
}

/**
 * The content of a policy (or the inspection settings) the limits use: the version approved now
 * or at `asOf` (controlled_versions approved_at <= asOf < deprecated_at). Before the first known
 * approval (data older than controlled records) the first approved version answers, the earliest
 * state known.
 */
export async function contentInForce<T>(
  q: Queryable,
  facilityId: number,
  kind: PolicyKind,
  options: InForceOptions = {},
): Promise<PolicyInForce<T>> {
  const place = placeOf(kind);
  const [record] = await q.query<{ id: number }>(selectRecord(place), [facilityId, kind]);
  if (!record) throw new AppError('NotFoundError', `No ${policyTitle(kind)} in this facility`);
  const ref = { facilityId, documentType: place.documentType, documentId: record.id };
  const pick = (where: string, order: string, params: unknown[] = []) =>
    q.query<{ content: T; version_number: number; status: string }>(
      `select content, version_number, status from controlled_versions
        where facility_id = $1 and document_type = $2 and document_id = $3 and ${where}
        order by ${order} limit 1`,
      [ref.facilityId, ref.documentType, ref.documentId, ...(params as never[])],
    );
  if (options.policy === 'draft') {
    const [draft] = await pick(
      `status in ('BeingBuilt', 'BeingReviewed', 'BeingApproved')`,
      'version_number desc',
    );
    if (draft)
      return { content: draft.content, versionNumber: draft.version_number, status: draft.status };
  }
  const inForce = await versionInForce<T>(q, ref, { asOf: options.asOf });
  if (!inForce) throw new Error(`${policyTitle(kind)} ${record.id} was never approved`);
  return { content: inForce.content, versionNumber: inForce.versionNumber, status: inForce.status };
}

/** The cleaning limit policy of a residue type the limits compute with (see contentInForce). */
export async function limitsPolicy(
  q: Queryable,
  facilityId: number,
  residueType: ResidueType,
  options: InForceOptions = {},
): Promise<PolicyInForce<CleaningLimitPolicy>> {
  const found = await contentInForce<Partial<CleaningLimitPolicy>>(
    q,
    facilityId,
    residueType,
    options,
  );
  return { ...found, content: { ...defaultPolicy(residueType), ...found.content, residueType } };
}
