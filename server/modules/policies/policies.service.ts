import { AppError } from '#core/errors/errors.ts';
import {
  defaultPolicy,
  effectiveSafetyFactor,
  RESIDUE_TYPES,
  type CleaningLimitPolicy,
  type ResidueType,
} from '#core/limits/policy.ts';
import type { TCleaningLimitPolicy } from '#core/schemas/policy.schemas.ts';
import type { TRecordStatus, TSignatureState } from '#core/schemas/signatures.schemas.ts';
import type { Db, Queryable } from '#server/db/db.ts';
import type { Actor } from '#server/db/audit-write.ts';
import type { Integrity } from '#server/records/record-integrity.ts';
import {
  getPolicyDocument,
  updatePolicyDocument,
  type PolicyDocument,
  type PolicyRead,
} from './policy-documents.ts';

/** A policy's own fields, as its read and each of its kept versions give them. */
export interface PolicyFields {
  id: number;
  residueType: ResidueType;
  policy: TCleaningLimitPolicy;
  safetyFactor: number;
  modificationFactor: number;
  version: number;
}

export interface StoredPolicy extends PolicyFields, Integrity {
  status: TRecordStatus;
  signatureState: TSignatureState | null;
  versionNumber: number;
  inForceVersionNumber: number | null;
  draftVersionNumber: number | null;
}

/** The stored fields over the residue type's defaults. */
export function policyFields(
  id: number,
  residueType: ResidueType,
  body: Partial<CleaningLimitPolicy>,
  version: number,
): PolicyFields {
  const full = { ...defaultPolicy(residueType), ...body, residueType };
  return {
    id,
    residueType,
    // The engine's units are wider than a policy may hold; stored policies passed the schema.
    policy: full as unknown as TCleaningLimitPolicy,
    safetyFactor: effectiveSafetyFactor(full),
    modificationFactor: full.modificationFactor,
    version,
  };
}

function view(
  residueType: ResidueType,
  document: PolicyDocument<CleaningLimitPolicy>,
): StoredPolicy {
  return {
    ...policyFields(document.id, residueType, document.body, document.version),
    status: document.status,
    signatureState: document.signatureState,
    versionNumber: document.versionNumber,
    inForceVersionNumber: document.inForceVersionNumber,
    draftVersionNumber: document.draftVersionNumber,
    ...(document.integrity
      ? { integrity: document.integrity, integrityReason: document.integrityReason ?? null }
      : {}),
  };
}

/**
 * The facility's policy for a residue type: the version in force (as the limits use it,
 * limitsPolicy in policy-in-force.ts), or with `read: 'draft'` the latest version, which the
 * editing screen changes.
 */
export async function getPolicy(
  q: Queryable,
  facilityId: number,
  residueType: ResidueType,
  options: PolicyRead = {},
): Promise<StoredPolicy> {
  return view(
    residueType,
    await getPolicyDocument<CleaningLimitPolicy>(q, facilityId, residueType, options),
  );
}

function refuseIntermediateFactor(residueType: ResidueType, edit: Partial<CleaningLimitPolicy>) {
  if (
    residueType === 'Intermediate' &&
    edit.safetyFactor !== undefined &&
    edit.safetyFactor !== 1000
  )
    throw new AppError(
      'DataValidationError',
      'The Intermediate policy uses a safety factor of 1000',
      {
        errors: [
          { property: 'safetyFactor', constraints: { fixed: 'is fixed at 1000 for Intermediate' } },
        ],
      },
    );
}

/** A change of a residue type's policy: its next version, in force once approved. */
export async function updatePolicy(
  db: Db,
  actor: Actor,
  scope: { planId: number; facilityId: number },
  residueType: ResidueType,
  edit: Partial<CleaningLimitPolicy>,
  meta: { reason: string; version: number },
): Promise<StoredPolicy> {
  refuseIntermediateFactor(residueType, edit);
  const document = await updatePolicyDocument<CleaningLimitPolicy>(db, actor, scope, residueType, {
    edit,
    ...meta,
    domain: 'CleaningPolicy',
    prepare: async (_tx, next) => ({ ...defaultPolicy(residueType), ...next, residueType }),
  });
  return view(residueType, document);
}

/**
 * A cleaning limit policy named in a path by residue type (any case) or by id. The microbial
 * policy shares the table (one documentId space) but has routes of its own, so it is not found.
 */
export async function policyRecordOf(
  q: Queryable,
  facilityId: number,
  id: string,
): Promise<{ id: number; residueType: ResidueType }> {
  const named = RESIDUE_TYPES.find((t) => t.toLowerCase() === id.toLowerCase());
  const [row] =
    named || /^\d{1,9}$/.test(id)
      ? await q.query<{ id: number; residue_type: ResidueType }>(
          `select id, residue_type from cleaning_limit_policies
            where facility_id = $1 and residue_type = any($2::text[])
              and ${named ? 'residue_type = $3' : 'id = $3::int'}`,
          [facilityId, [...RESIDUE_TYPES], named ?? id],
        )
      : [];
  if (!row) throw new AppError('NotFoundError', 'No such cleaning limit policy in this facility');
  return { id: row.id, residueType: row.residue_type };
}
