import type { z } from 'zod';
import type {
  ZEquipmentStatusItem,
  ZEquipmentStatusResponse,
  ZLogbookResponse,
  TEquipmentStatusItem,
  TLogbookRequest,
} from '#core/schemas/equipment-status.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath, type FacilityScope } from '#client/shared/master-data/entity-api.ts';

export type EquipmentStatusItem = z.output<typeof ZEquipmentStatusItem>;
export type EquipmentStatusBoard = z.output<typeof ZEquipmentStatusResponse>;
export type Logbook = z.output<typeof ZLogbookResponse>;
export type LogbookEntry = Logbook['entries'][number];
export type EquipmentState = TEquipmentStatusItem['state'];

export const equipmentStatusKeys = {
  /** The board of every line and each item's log: what a new entry changes. */
  all: (facilityId: number) => ['facility', facilityId, 'equipment-status'] as const,
  board: (facilityId: number, productionId: number | null = null) =>
    ['facility', facilityId, 'equipment-status', productionId] as const,
  logbook: (facilityId: number, id: number) =>
    ['facility', facilityId, 'equipment-status', 'logbook', id] as const,
};

/** The board, of one line (production) or of the whole facility. */
export function listEquipmentStatus(
  scope: FacilityScope,
  productionId: number | null,
  signal?: AbortSignal,
) {
  const line = productionId === null ? '' : `?productionId=${productionId}`;
  return apiRequest<EquipmentStatusBoard>(`${facilityPath(scope)}/equipment-status${line}`, {
    signal,
    action: 'Loading the equipment status',
  });
}

export function readLogbook(scope: FacilityScope, id: number, signal?: AbortSignal) {
  return apiRequest<Logbook>(`${facilityPath(scope)}/equipment/${id}/logbook`, {
    signal,
    action: 'Loading the equipment logbook',
  });
}

/** Appends an entry to an item's log (the server judges it: the production hold, the release). */
export function recordEntry(scope: FacilityScope, id: number, body: TLogbookRequest) {
  return apiRequest<{ entry: unknown; status: EquipmentStatusItem }>(
    `${facilityPath(scope)}/equipment/${id}/logbook`,
    { method: 'POST', body, action: 'Recording the logbook entry' },
  );
}
