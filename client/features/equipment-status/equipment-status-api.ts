import type { z } from 'zod';
import type {
  ZEquipmentStatusItem,
  ZLogbookResponse,
  TEquipmentStatusItem,
} from '#core/schemas/equipment-status.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath, type FacilityScope } from '#client/shared/master-data/entity-api.ts';

export type EquipmentStatusItem = z.output<typeof ZEquipmentStatusItem>;
export type Logbook = z.output<typeof ZLogbookResponse>;
export type EquipmentState = TEquipmentStatusItem['state'];

export const equipmentStatusKeys = {
  board: (facilityId: number, productionId: number | null = null) =>
    ['facility', facilityId, 'equipment-status', productionId] as const,
  logbook: (facilityId: number, id: number) =>
    ['facility', facilityId, 'equipment-status', 'logbook', id] as const,
};

/** The board, of one line (production) or of the whole facility. */
export async function listEquipmentStatus(
  scope: FacilityScope,
  productionId: number | null,
  signal?: AbortSignal,
) {
  const line = productionId === null ? '' : `?productionId=${productionId}`;
  const { items } = await apiRequest<{ items: EquipmentStatusItem[] }>(
    `${facilityPath(scope)}/equipment-status${line}`,
    { signal, action: 'Loading the equipment status' },
  );
  return items;
}

export function readLogbook(scope: FacilityScope, id: number, signal?: AbortSignal) {
  return apiRequest<Logbook>(`${facilityPath(scope)}/equipment/${id}/logbook`, {
    signal,
    action: 'Loading the equipment logbook',
  });
}
