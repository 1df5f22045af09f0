import { z } from 'zod';
import type { ServerResponse } from 'node:http';
import { contractChunks } from '../../../core/limits/contract-output.ts';
import { ZFacilityParams } from '../../../core/schemas/auth.schemas.ts';
import { typed, type AppContext } from '../../http/app-context.ts';
import { facilityLimitsInput } from './facility-limits-input.ts';
import { ZId } from '../../../core/schemas/common.schemas.ts';

export function registerLimitsRoutes({ app, db, permit }: AppContext): void {
  typed(app).get(
    '/api/v2/plans/:plan/facilities/:facility/mac-matrix',
    {
      preHandler: permit('RiskCalculation', 'Get'),
      schema: {
        tags: ['limits'],
        summary: "The MAC matrix of the facility's live master data",
        description:
          'Every previous → next pair of products that share equipment, with each criterion, the governing one, MACO, shared area and surface limit, then the lowest limits per product and per equipment item: the document of the limits command-line contract, streamed. `summary=true` leaves out the pairs.',
        params: ZFacilityParams,
        querystring: z.object({
          summary: z.enum(['true', 'false']).optional(),
          productionId: ZId.optional(),
        }),
      },
    },
    async (request, reply) => {
      const input = await facilityLimitsInput(db, request.params.facility, {
        productionId: request.query.productionId,
      });
      // The pairs are written as the matrix produces them, so a large facility is never held
      // in memory as one document.
      reply.hijack();
      reply.raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'x-request-id': request.id,
        'content-type': 'application/json; charset=utf-8',
      });
      // Waits for the client between chunks, so a slow reader never makes the server buffer
      // the whole matrix.
      for (const chunk of contractChunks(input, { summary: request.query.summary === 'true' })) {
        if (reply.raw.destroyed) return;
        if (!reply.raw.write(chunk)) await drainedOrClosed(reply.raw);
      }
      reply.raw.end();
    },
  );
}

/** Resolves when the socket can take more, or is gone; leaves no listener behind. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
