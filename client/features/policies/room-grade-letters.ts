/** Spec §3 cleaning grades; the same letters as core/schemas/room-grades.schemas.ts. */
export const ROOM_GRADES = ['A', 'B', 'C', 'D'] as const;
export type RoomGrade = (typeof ROOM_GRADES)[number];
