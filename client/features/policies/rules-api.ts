import type {
  TInspectionSettings,
  TMicrobialPolicy,
} from '../../../core/schemas/facility-rules.schemas.ts';
import type { TCleaningLimitPolicy } from '../../../core/schemas/policy.schemas.ts';
import type { TApprovalPolicyBody } from '../../../core/schemas/signatures.schemas.ts';
import { apiRequest } from '../../api/http-client.ts';
import { facilityPath } from '../master-data/entity-api.ts';
import type { FacilityScope } from '../master-data/entity-api.ts';

/** A facility document and the version it is at (0: the defaults, never changed). */
export interface VersionedDocument<T> {
  document: T;
  version: number;
}

export const RESIDUE_TYPES = ['Chemical', 'Detergent', 'Intermediate', 'Nitrosamine'] as const;
export type ResidueType = (typeof RESIDUE_TYPES)[number];

/** The policy's own fields as the form edits them (the residue type is the tab). */
export type PolicyFields = Omit<TCleaningLimitPolicy, 'residueType'>;

interface PolicyResponse {
  id: number | null;
  residueType: ResidueType;
  policy: TCleaningLimitPolicy;
  safetyFactor: number;
  modificationFactor: number;
  version: number;
}

function policyDocument(response: PolicyResponse): VersionedDocument<PolicyFields> {
  const { residueType: _residueType, ...fields } = response.policy;
  // The safety factor applied (1000 for Intermediate) is what the user should see.
  return {
    document: { ...fields, safetyFactor: response.safetyFactor },
    version: response.version,
  };
}

export const rulesKeys = {
  policy: (facilityId: number, residueType: ResidueType) =>
    ['facility', facilityId, 'cleaning-limit-policies', residueType] as const,
  microbial: (facilityId: number) => ['facility', facilityId, 'microbial-policy'] as const,
  inspection: (facilityId: number) => ['facility', facilityId, 'inspection-settings'] as const,
  approval: (facilityId: number, documentType: string) =>
    ['facility', facilityId, 'approval-policies', documentType] as const,
};

export async function loadPolicy(
  scope: FacilityScope,
  residueType: ResidueType,
  signal?: AbortSignal,
): Promise<VersionedDocument<PolicyFields>> {
  const response = await apiRequest<PolicyResponse>(
    `${facilityPath(scope)}/cleaning_limit_policies/${residueType}`,
    { signal, action: 'Loading the cleaning limit policy' },
  );
  return policyDocument(response);
}

export async function savePolicy(
  scope: FacilityScope,
  residueType: ResidueType,
  changes: Partial<PolicyFields>,
  version: number,
  reason: string,
): Promise<VersionedDocument<PolicyFields>> {
  const response = await apiRequest<PolicyResponse>(
    `${facilityPath(scope)}/cleaning_limit_policies`,
    { method: 'POST', body: { residueType, ...changes, version, reason }, action: 'Saving' },
  );
  return policyDocument(response);
}

export async function loadMicrobial(scope: FacilityScope, signal?: AbortSignal) {
  const r = await apiRequest<{ policy: TMicrobialPolicy; version: number }>(
    `${facilityPath(scope)}/microbial-cleaning-limit-policies`,
    { signal, action: 'Loading the microbial cleaning limit policy' },
  );
  return { document: r.policy, version: r.version };
}

export async function saveMicrobial(
  scope: FacilityScope,
  changes: Partial<TMicrobialPolicy>,
  version: number,
  reason: string,
): Promise<VersionedDocument<TMicrobialPolicy>> {
  const r = await apiRequest<{ policy: TMicrobialPolicy; version: number }>(
    `${facilityPath(scope)}/microbial-cleaning-limit-policies`,
    { method: 'POST', body: { ...changes, version, reason }, action: 'Saving' },
  );
  return { document: r.policy, version: r.version };
}

interface InspectionResponse {
  cleaningInspectionSettings: TInspectionSettings;
  version: number;
}

export async function loadInspection(scope: FacilityScope, signal?: AbortSignal) {
  const r = await apiRequest<InspectionResponse>(
    `${facilityPath(scope)}/cleaning-inspection-settings`,
    { signal, action: 'Loading the cleaning inspection settings' },
  );
  return { document: r.cleaningInspectionSettings, version: r.version };
}

export async function saveInspection(
  scope: FacilityScope,
  changes: Partial<TInspectionSettings>,
  version: number,
  reason: string,
): Promise<VersionedDocument<TInspectionSettings>> {
  const r = await apiRequest<InspectionResponse>(
    `${facilityPath(scope)}/cleaning-inspection-settings`,
    { method: 'POST', body: { ...changes, version, reason }, action: 'Saving' },
  );
  return { document: r.cleaningInspectionSettings, version: r.version };
}

/** An approval policy's own fields (steps, self-approval), as the form edits them. */
export type ApprovalPolicyFields = Omit<TApprovalPolicyBody, 'documentType' | 'version'>;

interface ApprovalResponse {
  approvalPolicy: TApprovalPolicyBody;
}

function approvalDocument(r: ApprovalResponse): VersionedDocument<ApprovalPolicyFields> {
  const { steps, allowSelfApproval, version } = r.approvalPolicy;
  return { document: { steps, allowSelfApproval }, version };
}

export async function loadApproval(
  scope: FacilityScope,
  documentType: string,
  signal?: AbortSignal,
) {
  const r = await apiRequest<ApprovalResponse>(`${facilityPath(scope)}/approval_policies`, {
    query: { documentType },
    signal,
    action: 'Loading the approval policy',
  });
  return approvalDocument(r);
}

/** The API takes the whole policy: the form's changes over the policy as stored. */
export async function saveApproval(
  scope: FacilityScope,
  documentType: string,
  changes: Partial<ApprovalPolicyFields>,
  version: number,
  reason: string,
): Promise<VersionedDocument<ApprovalPolicyFields>> {
  const current = await loadApproval(scope, documentType);
  const r = await apiRequest<ApprovalResponse>(`${facilityPath(scope)}/approval_policies`, {
    method: 'POST',
    body: { documentType, ...current.document, ...changes, version, reason },
    action: 'Saving',
  });
  return approvalDocument(r);
}
