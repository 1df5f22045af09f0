import { z } from 'zod';
import { ZReason, ZId } from './common.schemas.ts';

export const ROOM_GRADES = ['A', 'B', 'C', 'D'] as const;

export const ZRoomGrade = z.object({
  id: z.number().int(),
  grade: z.enum(ROOM_GRADES),
  description: z.string(),
  equipmentIds: z.array(z.number().int()),
  version: z.number().int(),
  updatedAt: z.string(),
});

/** Spec §7: POST room-grades/{id} with equipments and reason; the id or the grade letter. */
export const ZRoomGradeParams = z.object({
  plan: ZId,
  facility: ZId,
  id: z.string().trim().min(1).max(20),
});

export const ZRoomGradeRequest = z
  .object({
    equipments: z.array(z.number().int().positive()).max(10_000),
    reason: ZReason,
    version: z.number().int().min(1),
  })
  .strict();
