import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZAuditVerifyResult } from '#core/schemas/audit.schemas.ts';
import { apiRequest } from '#client/api/http-client.ts';

export type AuditVerifyResult = z.infer<typeof ZAuditVerifyResult>;

/** Recomputes the hash chains the user may read (the plan's and their facilities'). */
export function useVerifyAuditTrail() {
  return useMutation({
    mutationFn: () =>
      apiRequest<AuditVerifyResult>('/audit_logs/verify', {
        action: 'Verifying the audit trail',
      }),
  });
}
