import { z } from 'zod';
import { ZFacilityParams } from '../../../core/schemas/auth.schemas.ts';
import { typed, type AppContext } from '../../http/app-context.ts';
import { verifyChain } from './audit.service.ts';

const ZChainCheck = z.object({
  chain: z.string(),
  rows: z.number(),
  intact: z.boolean(),
  brokenSeq: z.number().nullable(),
  problem: z.string().nullable(),
});

export function registerAuditRoutes({ app, db, permit }: AppContext): void {
  typed(app).get(
    '/api/v2/plans/:plan/facilities/:facility/audit_logs/verify',
    {
      preHandler: permit('AuditLog', 'Get'),
      schema: {
        tags: ['audit'],
        summary: "Recompute the hash chains of the facility's and the plan's audit trail",
        params: ZFacilityParams,
        response: { 200: z.object({ intact: z.boolean(), chains: z.array(ZChainCheck) }) },
      },
    },
    async (request) => {
      const { plan, facility } = request.params;
      const chains = [
        await verifyChain(db, `facility:${facility}`),
        await verifyChain(db, `plan:${plan}`),
      ];
      return { intact: chains.every((c) => c.intact), chains };
    },
  );
}
