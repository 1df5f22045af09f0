import type { z } from 'zod';
import type {
  ZEquipmentImage,
  ZSample,
  ZSamplingLocation,
} from '#core/schemas/equipment-extras.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath } from './entity-api.ts';
import type { EntityRecord, FacilityScope } from './entity-api.ts';

export interface Quantity {
  value: number;
  unit: string;
}

/** The server checks its answers with these schemas (equipment-extras routes). */
export type EquipmentImage = z.output<typeof ZEquipmentImage>;
export type SamplingLocation = z.output<typeof ZSamplingLocation>;
export type Sample = z.output<typeof ZSample>;

export interface LocationInput {
  name: string;
  description?: string | null;
  sampleType: 'swab' | 'rinse';
  swabArea?: Quantity | null;
  material?: string | null;
}

/** Where a location sits on a picture of its equipment (fractions of it), or null for none. */
export interface PositionInput {
  imageId: number | null;
  x: number | null;
  y: number | null;
}

export interface AssessInput {
  hardToClean: number;
  inaccessibility: number;
  material?: string;
  productContact: 'Direct' | 'Indirect' | 'None';
  comment?: string;
}

/** Where the facility has sampling-assessment attributes: one option for each of them. */
export interface RatingsInput {
  ratings: { attributeId: number; option: string }[];
  comment?: string;
}

export interface SampleInput {
  name: string;
  sampleType: 'swab' | 'rinse';
  analyticalTest?: string | null;
  batchNumber?: string | null;
}

const base = (scope: FacilityScope, id: number) => `${facilityPath(scope)}/equipments/${id}`;

export function getEquipment(scope: FacilityScope, id: number, signal?: AbortSignal) {
  // The whole record: its page shows every field (master-data/RecordFields.tsx).
  return apiRequest<EntityRecord & { name: string }>(base(scope, id), {
    signal,
    action: 'Loading the equipment',
  });
}

export async function listImages(scope: FacilityScope, id: number, signal?: AbortSignal) {
  const { data } = await apiRequest<{ data: EquipmentImage[] }>(`${base(scope, id)}/images`, {
    signal,
    action: 'Loading the images',
  });
  return data;
}

export function addImage(
  scope: FacilityScope,
  id: number,
  body: { imageData: string; name: string; reason: string },
) {
  return apiRequest(`${base(scope, id)}/images`, {
    method: 'POST',
    body,
    action: 'Adding the image',
  });
}

export function deleteImage(scope: FacilityScope, id: number, imageId: number, reason: string) {
  return apiRequest(`${base(scope, id)}/images/${imageId}`, {
    method: 'DELETE',
    body: { reason },
    action: 'Removing the image',
  });
}

export async function listLocations(
  scope: FacilityScope,
  id: number,
  archived: boolean,
  signal?: AbortSignal,
) {
  const { data } = await apiRequest<{ data: SamplingLocation[] }>(
    `${base(scope, id)}/sampling-locations`,
    { query: { archived }, signal, action: 'Loading the sampling locations' },
  );
  return data;
}

export function addLocation(scope: FacilityScope, id: number, data: LocationInput, reason: string) {
  return apiRequest(`${base(scope, id)}/sampling-locations`, {
    method: 'POST',
    body: { data: [data], equipmentId: id, reason },
    action: 'Adding the sampling location',
  });
}

export function editLocation(
  scope: FacilityScope,
  id: number,
  location: SamplingLocation,
  data: Partial<LocationInput> | PositionInput,
  reason: string,
) {
  return apiRequest(`${base(scope, id)}/sampling-locations/${location.id}`, {
    method: 'PUT',
    body: { data, version: location.version, reason },
    action: 'Editing the sampling location',
  });
}

export function archiveLocation(
  scope: FacilityScope,
  id: number,
  locationId: number,
  reason: string,
) {
  return apiRequest(`${base(scope, id)}/sampling-locations/${locationId}`, {
    method: 'DELETE',
    body: { reason },
    action: 'Archiving the sampling location',
  });
}

export function restoreLocation(
  scope: FacilityScope,
  id: number,
  locationId: number,
  reason: string,
) {
  return apiRequest(`${base(scope, id)}/sampling-locations/${locationId}`, {
    method: 'PUT',
    body: { unArchive: true, reason },
    action: 'Restoring the sampling location',
  });
}

export function assessLocationRisk(
  scope: FacilityScope,
  id: number,
  location: SamplingLocation,
  input: AssessInput | RatingsInput,
  reason: string,
) {
  return apiRequest<{ result: SamplingLocation }>(
    `${base(scope, id)}/sampling-locations/${location.id}/assess`,
    {
      method: 'POST',
      body: { ...input, equipmentId: id, version: location.version, reason },
      action: 'Assessing the sampling location',
    },
  );
}

const samplesPath = (scope: FacilityScope, id: number, locationId: number) =>
  `${base(scope, id)}/sampling-locations/${locationId}/samples`;

export async function listSamples(
  scope: FacilityScope,
  id: number,
  locationId: number,
  archived: boolean,
  signal?: AbortSignal,
) {
  const { data } = await apiRequest<{ data: Sample[] }>(samplesPath(scope, id, locationId), {
    query: { archived },
    signal,
    action: 'Loading the samples',
  });
  return data;
}

export function addSample(
  scope: FacilityScope,
  id: number,
  locationId: number,
  input: SampleInput,
  reason: string,
) {
  return apiRequest(samplesPath(scope, id, locationId), {
    method: 'POST',
    body: { ...input, reason },
    action: 'Adding the sample',
  });
}

export function setSampleArchived(
  scope: FacilityScope,
  id: number,
  locationId: number,
  sampleId: number,
  archived: boolean,
  reason: string,
) {
  return apiRequest(`${samplesPath(scope, id, locationId)}/${sampleId}`, {
    method: 'PUT',
    body: archived ? { archive: true, reason } : { unArchive: true, reason },
    action: archived ? 'Archiving the sample' : 'Restoring the sample',
  });
}
