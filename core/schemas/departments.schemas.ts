import { z } from 'zod';
import { ZReason, ZVersion } from './common.schemas.ts';

const ZDepartmentName = z.string().trim().min(1, 'Please enter the department name').max(100);

export const ZCreateDepartmentRequest = z.object({ name: ZDepartmentName });

export const ZUpdateDepartmentRequest = z.object({
  name: ZDepartmentName,
  reason: ZReason,
  version: ZVersion,
});

export const ZDepartment = z.object({
  id: z.number().int(),
  name: z.string(),
  userCount: z.number().int(),
  version: z.number().int(),
});
export type TDepartment = z.infer<typeof ZDepartment>;
