import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PropertyTarget,
  TCreatePropertyDefinition,
  TPropertyDefinition,
} from '#core/schemas/additional-properties.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { sessionKeys } from '../session-queries.ts';
import { facilityPath, type FacilityScope } from '../master-data/entity-api.ts';
import { useFacilityScope } from '../master-data/use-facility-scope.ts';

export const propertyKeys = {
  target: (facilityId: number, target: PropertyTarget) =>
    ['facility', facilityId, 'additional-properties', target] as const,
};

export interface DefinitionEdit {
  label?: string;
  options?: string[];
  required?: boolean;
  helpText?: string;
}

const base = (scope: FacilityScope, target: PropertyTarget) =>
  `${facilityPath(scope)}/additional-properties/${target}`;

export async function listDefinitions(
  scope: FacilityScope,
  target: PropertyTarget,
  signal?: AbortSignal,
): Promise<TPropertyDefinition[]> {
  const { definitions } = await apiRequest<{ definitions: TPropertyDefinition[] }>(
    base(scope, target),
    { signal, action: 'Loading the additional properties' },
  );
  return definitions;
}

/** The definitions of one target; none when the entity carries no additional properties. */
export function usePropertyDefinitions(target: PropertyTarget | undefined) {
  const scope = useFacilityScope();
  return useQuery({
    queryKey: propertyKeys.target(scope.facilityId, target ?? 'api'),
    queryFn: ({ signal }) => listDefinitions(scope, target as PropertyTarget, signal),
    enabled: target !== undefined,
  });
}

type Change =
  | { type: 'create'; body: TCreatePropertyDefinition }
  | { type: 'edit'; key: string; body: DefinitionEdit; reason: string; version: number }
  | { type: 'archive'; key: string; reason: string }
  | { type: 'restore'; key: string; reason: string };

function send(scope: FacilityScope, target: PropertyTarget, change: Change) {
  const path = base(scope, target);
  switch (change.type) {
    case 'create':
      return apiRequest<unknown>(path, {
        method: 'POST',
        body: change.body,
        action: 'Adding the property',
      });
    case 'edit':
      return apiRequest<unknown>(`${path}/${change.key}`, {
        method: 'PUT',
        body: { ...change.body, reason: change.reason, version: change.version },
        action: 'Saving the property',
      });
    case 'archive':
      return apiRequest<unknown>(`${path}/${change.key}/archive`, {
        method: 'PUT',
        body: { reason: change.reason },
        action: 'Archiving the property',
      });
    case 'restore':
      return apiRequest<unknown>(`${path}/${change.key}`, {
        method: 'POST',
        body: { unArchive: true, reason: change.reason },
        action: 'Restoring the property',
      });
  }
}

/** Any change refetches the target's definitions and the facilities list that carries them. */
export function useChangeDefinition(target: PropertyTarget) {
  const scope = useFacilityScope();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: Change) => send(scope, target, change),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: propertyKeys.target(scope.facilityId, target) }),
        client.invalidateQueries({ queryKey: sessionKeys.facilities(scope.planId) }),
      ]),
  });
}
