import type { z } from 'zod';
import type { ZRoomGrade } from '#core/schemas/room-grades.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';
import { facilityPath } from '#client/shared/master-data/entity-api.ts';
import type { FacilityScope } from '#client/shared/master-data/entity-api.ts';

export type RoomGrade = z.output<typeof ZRoomGrade>;

export async function listRoomGrades(scope: FacilityScope, signal?: AbortSignal) {
  const { data } = await apiRequest<{ data: RoomGrade[] }>(`${facilityPath(scope)}/room-grades`, {
    signal,
    action: 'Loading the room grades',
  });
  return data;
}

/** The grade's whole equipment list replaces the old one; equipment leaves any other grade. */
export function setGradeEquipment(
  scope: FacilityScope,
  grade: RoomGrade,
  equipments: number[],
  reason: string,
) {
  return apiRequest<unknown>(`${facilityPath(scope)}/room-grades/${grade.grade}`, {
    method: 'POST',
    body: { equipments, reason, version: grade.version },
    action: 'Assigning equipment to the room grade',
  });
}
