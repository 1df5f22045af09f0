import type { z } from 'zod';
import type {
  THbelLineage,
  THbelMonograph,
  THbelMonographInput,
  THbelVersion,
  ZHbelLinkRequest,
  ZHbelWhereUsed,
} from '#core/schemas/hbel-library.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath, type FacilityScope } from '#client/shared/master-data/entity-api.ts';

/*
 * The plan's HBEL library (issue 32): its monographs read plan-wide, and the link of this
 * facility's actives to them.
 */

export type HbelMonograph = THbelMonograph;
export type HbelVersion = THbelVersion;
export type HbelLineage = THbelLineage;
export type HbelWhereUsed = z.output<typeof ZHbelWhereUsed>;
export type HbelLinkRequest = z.input<typeof ZHbelLinkRequest>;

const libraryPath = (planId: number) => `/plans/${planId}/hbel-library`;

export const hbelKeys = {
  /** Every read of the library: what a create, a new version or a signature changes. */
  all: (planId: number) => ['plan', planId, 'hbel-library'] as const,
  list: (planId: number) => ['plan', planId, 'hbel-library', 'list'] as const,
  detail: (planId: number, id: number) => ['plan', planId, 'hbel-library', id] as const,
  versions: (planId: number, id: number) =>
    ['plan', planId, 'hbel-library', id, 'versions'] as const,
  whereUsed: (planId: number, id: number) =>
    ['plan', planId, 'hbel-library', id, 'where-used'] as const,
};

export function listMonographs(planId: number, signal?: AbortSignal) {
  return apiRequest<{ items: HbelMonograph[]; count: number }>(libraryPath(planId), {
    signal,
    action: 'Loading the HBEL library',
  });
}

export function readMonograph(planId: number, id: number, signal?: AbortSignal) {
  return apiRequest<HbelMonograph>(`${libraryPath(planId)}/${id}`, {
    signal,
    action: 'Loading the HBEL monograph',
  });
}

export function monographVersions(planId: number, id: number, signal?: AbortSignal) {
  return apiRequest<{ versions: HbelVersion[] }>(`${libraryPath(planId)}/${id}/versions`, {
    signal,
    action: 'Loading the versions of the monograph',
  });
}

export function monographWhereUsed(planId: number, id: number, signal?: AbortSignal) {
  return apiRequest<HbelWhereUsed>(`${libraryPath(planId)}/${id}/where-used`, {
    signal,
    action: 'Loading where the monograph is used',
  });
}

export function createMonograph(
  planId: number,
  body: THbelMonographInput & { signingFacilityId: number },
) {
  return apiRequest<HbelMonograph>(libraryPath(planId), {
    method: 'POST',
    body,
    action: 'Creating the monograph',
  });
}

export function newMonographVersion(
  planId: number,
  id: number,
  body: THbelMonographInput & { version: number; reason: string },
) {
  return apiRequest<HbelMonograph>(`${libraryPath(planId)}/${id}`, {
    method: 'POST',
    body,
    action: 'Saving the new version of the monograph',
  });
}

/** Links, relinks, overrides (signed) or unlinks an active of this facility. */
export function linkActive(scope: FacilityScope, activeId: number, body: HbelLinkRequest) {
  return apiRequest<{ activeId: number; version: number; lineage: HbelLineage | null }>(
    `${facilityPath(scope)}/apis/${activeId}/hbel-link`,
    { method: 'PUT', body, action: 'Saving the library link' },
  );
}
