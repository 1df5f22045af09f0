import { useQuery } from '@tanstack/react-query';
import type { EntityDef } from '#core/entities/entity.ts';
import type { TAttachment, TDocumentSummary } from '#core/schemas/attachments.schemas.ts';
import { apiRequest, apiUrl } from '#client/api/http-client.ts';
import { facilityPath, type FacilityScope } from './entity-api.ts';
import { entityKeys } from '../query-keys.ts';
import { useFacilityScope } from './use-facility-scope.ts';
import { lowerLabel } from '#core/entities/labels.ts';

/** A link the browser follows with its session cookie; the server names the file. */
export function documentUrl(
  scope: FacilityScope,
  def: EntityDef,
  ownerId: number,
  documentId: number,
): string {
  return apiUrl(`${facilityPath(scope)}/${def.path}/${ownerId}/document/${documentId}`);
}

/** The current document a list or detail record carries, for entities that take one. */
export function documentOf(record: Record<string, unknown>): TDocumentSummary {
  const value = record.document as TDocumentSummary | undefined;
  return value ?? null;
}

/** Every document of a record: the current one, then the superseded ones. */
export function useDocuments(def: EntityDef, ownerId: number | null) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: entityKeys.documents(scope.facilityId, def, ownerId),
    enabled: Boolean(def.document) && ownerId !== null,
    queryFn: async ({ signal }) => {
      const { data } = await apiRequest<{ data: TAttachment[] }>(
        `${facilityPath(scope)}/${def.path}/${ownerId}/documents`,
        { action: `Loading the documents of the ${lowerLabel(def.label)}`, signal },
      );
      return data;
    },
  });
}
