import { useQuery } from '@tanstack/react-query';
import type {
  TApprovalPolicyBody,
  TApprovalPolicyRequest,
  TControlledDocumentType,
  TSignedDocumentType,
  TPendingApproval,
  TSignEligibility,
  TSignature,
  TSignRequest,
  TSignResponse,
} from '#core/schemas/signatures.schemas.ts';
import type { TRecordVersionsResponse } from '#core/schemas/versions.schemas.ts';
import { apiDownload, apiRequest, saveBlob } from '#client/api/http-client.ts';
import { facilityPath } from '../master-data/entity-api.ts';
import type { FacilityScope } from '../master-data/entity-api.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';

/** The calls of shared/contracts/signatures-api.md and of the versions of a record. */

export const recordsKeys = {
  signatures: (facilityId: number, documentType: string, documentId: number) =>
    ['facility', facilityId, 'signatures', documentType, documentId] as const,
  /** Under the record's signatures: a signature refreshes both. */
  eligibility: (facilityId: number, documentType: string, documentId: number) =>
    ['facility', facilityId, 'signatures', documentType, documentId, 'eligibility'] as const,
  pending: (facilityId: number) => ['facility', facilityId, 'signatures', 'pending'] as const,
  approvalPolicy: (facilityId: number, documentType: string) =>
    ['facility', facilityId, 'approval-policies', documentType] as const,
  versions: (path: string) => ['versions', path] as const,
};

export function signRecord(scope: FacilityScope, request: TSignRequest): Promise<TSignResponse> {
  return apiRequest<TSignResponse>(`${facilityPath(scope)}/signatures`, {
    method: 'POST',
    body: request,
    action: `${request.action === 'Submit' ? 'Submitting' : 'Signing'} the record`,
  });
}

export async function listSignatures(
  scope: FacilityScope,
  documentType: TControlledDocumentType,
  documentId: number,
  signal?: AbortSignal,
): Promise<TSignature[]> {
  const answer = await apiRequest<{ signatures: TSignature[] }>(
    `${facilityPath(scope)}/signatures`,
    { query: { documentType, documentId }, signal, action: 'Loading the signatures' },
  );
  return answer.signatures;
}

/**
 * Saves the PDF of a record's version (the latest unless `versionNumber` names one) with its
 * signature manifest (Part 11 ES-1); an equipment release is printed as its item's n-th release.
 */
export async function downloadRecordPdf(
  scope: FacilityScope,
  record: { documentType: TSignedDocumentType; documentId: number; versionNumber?: number },
  fileName: string,
): Promise<void> {
  const blob = await apiDownload(`${facilityPath(scope)}/signatures/pdf`, {
    query: {
      documentType: record.documentType,
      documentId: record.documentId,
      ...(record.versionNumber ? { versionNumber: record.versionNumber } : {}),
    },
    action: 'Printing the record',
  });
  saveBlob(blob, fileName);
}

export async function listPendingApprovals(
  scope: FacilityScope,
  signal?: AbortSignal,
): Promise<{ items: TPendingApproval[]; count: number }> {
  return apiRequest(`${facilityPath(scope)}/signatures/pending`, {
    signal,
    action: 'Loading the records waiting for your signature',
    // Polled every minute for the menu's badge: no sign that anyone is at the screen.
    isBackground: true,
  });
}

export async function loadApprovalPolicy(
  scope: FacilityScope,
  documentType: TControlledDocumentType,
  signal?: AbortSignal,
): Promise<TApprovalPolicyBody> {
  const answer = await apiRequest<{ approvalPolicy: TApprovalPolicyBody }>(
    `${facilityPath(scope)}/approval_policies`,
    { query: { documentType }, signal, action: 'Loading the approval policy' },
  );
  return answer.approvalPolicy;
}

export async function saveApprovalPolicy(
  scope: FacilityScope,
  request: TApprovalPolicyRequest,
): Promise<TApprovalPolicyBody> {
  const answer = await apiRequest<{ approvalPolicy: TApprovalPolicyBody }>(
    `${facilityPath(scope)}/approval_policies`,
    { method: 'POST', body: request, action: 'Saving the approval policy' },
  );
  return answer.approvalPolicy;
}

/** `path` is the record's own path under /api/v2 (…/sop/12); its versions are under it. */
export function listVersions(path: string, signal?: AbortSignal): Promise<TRecordVersionsResponse> {
  return apiRequest<TRecordVersionsResponse>(`${path}/versions`, {
    signal,
    action: 'Loading the versions of the record',
  });
}

export function useApprovalPolicy(documentType: TControlledDocumentType, enabled = true) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: recordsKeys.approvalPolicy(scope.facilityId, documentType),
    queryFn: ({ signal }) => loadApprovalPolicy(scope, documentType, signal),
    enabled,
  });
}

export function useSignatures(documentType: TControlledDocumentType, documentId: number) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: recordsKeys.signatures(scope.facilityId, documentType, documentId),
    queryFn: ({ signal }) => listSignatures(scope, documentType, documentId, signal),
  });
}

/** Whether the record's current version waits for the signed-in user's signature, or why not. */
export function useSignEligibility(
  documentType: TControlledDocumentType,
  documentId: number,
  versionNumber: number,
) {
  const scope = useFacilityScope();
  return useQuery({
    // The version number in the key: a new version (a submission) asks again.
    queryKey: [
      ...recordsKeys.eligibility(scope.facilityId, documentType, documentId),
      versionNumber,
    ],
    queryFn: ({ signal }) =>
      apiRequest<TSignEligibility>(`${facilityPath(scope)}/signatures/eligibility`, {
        query: { documentType, documentId },
        signal,
        action: 'Loading whether the record waits for your signature',
      }),
  });
}

/** The records waiting for the signed-in user's signature; `enabled` false for non-signers. */
export function usePendingApprovals(enabled = true) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: recordsKeys.pending(scope.facilityId),
    queryFn: ({ signal }) => listPendingApprovals(scope, signal),
    enabled,
    refetchInterval: 60_000,
  });
}
