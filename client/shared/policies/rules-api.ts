import { useQuery } from '@tanstack/react-query';
import type {
  TInspectionSettings,
  TMicrobialPolicy,
} from '#core/schemas/facility-rules.schemas.ts';
import type {
  TControlledDocumentType,
  TControlledState,
} from '#core/schemas/signatures.schemas.ts';
import { controlledStateOf } from '../records/record-actions.ts';
import { policyTabFor, type PolicyOfType } from './policy-tab.ts';
import type { TCleaningLimitPolicy } from '#core/schemas/policy.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath } from '../master-data/entity-api.ts';
import type { FacilityScope } from '../master-data/entity-api.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';
import { policyKeys } from '#client/shared/query-keys.ts';

/** A facility document and the version it is at (0: the defaults, never changed). */
export interface VersionedDocument<T> {
  document: T;
  version: number;
  /** The controlled record's id, state and path, when the server keeps it as one (issue 10). */
  controlled?: ControlledRef;
}

export interface ControlledRef {
  documentType: TControlledDocumentType;
  id: number;
  state: TControlledState;
  /** The record's path below /api/v2, for its version history. */
  path: string;
  /** The version in force (approved); null before the first approval or from an older server. */
  inForceVersionNumber: number | null;
  /** A later version not yet in force (being built, reviewed or approved), or null. */
  draftVersionNumber: number | null;
}

const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);

/** Which versions of a controlled record a read names besides the one it answers. */
export function versionNumbersOf(
  response: Record<string, unknown>,
): Pick<ControlledRef, 'inForceVersionNumber' | 'draftVersionNumber'> {
  return {
    inForceVersionNumber: numberOrNull(response.inForceVersionNumber),
    draftVersionNumber: numberOrNull(response.draftVersionNumber),
  };
}

/** The controlled part of a policy's read, or nothing from a server that does not send it. */
function controlledRef(
  documentType: TControlledDocumentType,
  response: { id?: number | null } & Record<string, unknown>,
  path: (id: number) => string,
): { controlled?: ControlledRef } {
  const state = controlledStateOf(response);
  if (!state || typeof response.id !== 'number') return {};
  return {
    controlled: {
      documentType,
      id: response.id,
      state,
      path: path(response.id),
      ...versionNumbersOf(response),
    },
  };
}

import type { ResidueType } from '#core/limits/policy.ts';

export { RESIDUE_TYPES, type ResidueType } from '#core/limits/policy.ts';

/** The policy's own fields as the form edits them (the residue type is the tab). */
export type PolicyFields = Omit<TCleaningLimitPolicy, 'residueType'>;

interface PolicyResponse extends Record<string, unknown> {
  id: number | null;
  residueType: ResidueType;
  policy: TCleaningLimitPolicy;
  safetyFactor: number;
  modificationFactor: number;
  version: number;
}

function policyDocument(
  scope: FacilityScope,
  response: PolicyResponse,
): VersionedDocument<PolicyFields> {
  const { residueType: _residueType, ...fields } = response.policy;
  // The safety factor applied (1000 for Intermediate) is what the user should see.
  return {
    document: { ...fields, safetyFactor: response.safetyFactor },
    version: response.version,
    ...controlledRef(
      'CleaningLimitPolicy',
      response,
      (id) => `${facilityPath(scope)}/cleaning_limit_policies/${id}`,
    ),
  };
}

export const rulesKeys = {
  policy: (facilityId: number, residueType: ResidueType) =>
    ['facility', facilityId, 'cleaning-limit-policies', residueType] as const,
  microbial: (facilityId: number) => ['facility', facilityId, 'microbial-policy'] as const,
  inspection: (facilityId: number) => ['facility', facilityId, 'inspection-settings'] as const,
};

/**
 * The editing forms read the draft (the version an edit changes); a plain read answers the
 * version in force, which runs and limits use.
 */
const DRAFT = 'version=draft';

export async function loadPolicy(
  scope: FacilityScope,
  residueType: ResidueType,
  signal?: AbortSignal,
): Promise<VersionedDocument<PolicyFields>> {
  const response = await apiRequest<PolicyResponse>(
    `${facilityPath(scope)}/cleaning_limit_policies/${residueType}?${DRAFT}`,
    { signal, action: 'Loading the cleaning limit policy' },
  );
  return policyDocument(scope, response);
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
  return policyDocument(scope, response);
}

interface MicrobialResponse extends Record<string, unknown> {
  policy: TMicrobialPolicy;
  version: number;
}

function microbialDocument(scope: FacilityScope, r: MicrobialResponse) {
  // One per facility: its versions are at the rule's own path.
  const path = () => `${facilityPath(scope)}/microbial-cleaning-limit-policies`;
  return {
    document: r.policy,
    version: r.version,
    ...controlledRef('CleaningLimitPolicy', r, path),
  };
}

export async function loadMicrobial(scope: FacilityScope, signal?: AbortSignal) {
  const r = await apiRequest<MicrobialResponse>(
    `${facilityPath(scope)}/microbial-cleaning-limit-policies?${DRAFT}`,
    { signal, action: 'Loading the microbial cleaning limit policy' },
  );
  return microbialDocument(scope, r);
}

export async function saveMicrobial(
  scope: FacilityScope,
  changes: Partial<TMicrobialPolicy>,
  version: number,
  reason: string,
): Promise<VersionedDocument<TMicrobialPolicy>> {
  const r = await apiRequest<MicrobialResponse>(
    `${facilityPath(scope)}/microbial-cleaning-limit-policies`,
    { method: 'POST', body: { ...changes, version, reason }, action: 'Saving' },
  );
  return microbialDocument(scope, r);
}

interface InspectionResponse extends Record<string, unknown> {
  cleaningInspectionSettings: TInspectionSettings;
  version: number;
}

function inspectionDocument(scope: FacilityScope, r: InspectionResponse) {
  const path = () => `${facilityPath(scope)}/cleaning-inspection-settings`;
  return {
    document: r.cleaningInspectionSettings,
    version: r.version,
    ...controlledRef('CleaningInspectionSettings', r, path),
  };
}

export async function loadInspection(scope: FacilityScope, signal?: AbortSignal) {
  const r = await apiRequest<InspectionResponse>(
    `${facilityPath(scope)}/cleaning-inspection-settings?${DRAFT}`,
    { signal, action: 'Loading the cleaning inspection settings' },
  );
  return inspectionDocument(scope, r);
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
  return inspectionDocument(scope, r);
}

/** Reads the facility's policies to find the tab of a policy My approvals links to. */
export async function loadPolicyTab(
  scope: FacilityScope,
  documentId: number,
  signal?: AbortSignal,
): Promise<string> {
  const { policies } = await apiRequest<{ policies: PolicyOfType[] }>(
    `${facilityPath(scope)}/cleaning_limit_policies`,
    { signal, action: 'Finding the cleaning limit policy' },
  );
  return policyTabFor(documentId, policies);
}

/** The residue-type tab of a limit policy named by its document id; nothing asked for null. */
export function usePolicyTab(documentId: number | null) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: policyKeys.tab(scope.facilityId, documentId),
    queryFn: ({ signal }) => loadPolicyTab(scope, documentId ?? 0, signal),
    enabled: documentId !== null,
  });
}
