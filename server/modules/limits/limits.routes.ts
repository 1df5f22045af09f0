import { z } from 'zod';
import type { Writable } from 'node:stream';
import { contractChunks } from '#core/limits/contract-output.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { acceptsGzip, compressorFor, streamEncoding } from '#server/http/compression.ts';
import { registerArchiveImpact } from './archive-impact.ts';
import { inflated, macColumns } from './mac-columns.ts';
import { macMatrixCache } from './mac-matrix-cache.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import { ZAsOfQuery } from '#core/schemas/versions.schemas.ts';

export function registerLimitsRoutes({ app, db, permit }: AppContext): void {
  registerArchiveImpact();
  typed(app).get(
    '/api/v2/plans/:plan/facilities/:facility/mac-matrix',
    {
      preHandler: permit('RiskCalculation', 'Get'),
      schema: {
        tags: ['limits'],
        summary: "The MAC matrix of the facility's live master data",
        description:
          'Every previous → next pair of products that share equipment, with each criterion, the governing one, MACO, shared area and surface limit, then the lowest limits per product and per equipment item: the document of the limits command-line contract, streamed. `summary=true` leaves out the pairs. `uncomputable` lists the products and equipment whose stored data the engine cannot compute with, and why; they are left out and the rest is computed. The limits use the approved version of the cleaning limit policy; `asOf` (ISO date-time) answers with the facility’s data and the policy approved at that moment, exactly as then; a record made before versions were kept and changed since counts as first kept, and `historyStartsAt` (last) then says from which moment.',
        params: ZFacilityParams,
        querystring: ZAsOfQuery.extend({
          summary: z.enum(['true', 'false']).optional(),
          productionId: ZId.optional(),
          format: z
            .enum(['contract', 'columns'])
            .optional()
            .describe(
              'contract (default): the document of the limits command-line contract, as above. columns: the same pairs, products and equipment in columns (ZMacColumns: names once, numbers as the bytes of little-endian typed arrays in base64), about a sixth of the size; serialised and gzipped once per state of the facility’s data. `summary` applies to the contract format only.',
            ),
        }),
      },
    },
    async (request, reply) => {
      const state = await macMatrixCache(db).get(db, request.params.facility, {
        productionId: request.query.productionId,
        asOf: request.query.asOf,
      });
      if (request.query.format === 'columns') {
        // Serialised and gzipped once per state of the data, kept with it; sent as kept.
        const kept = await macColumns(state);
        void reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
        if (!acceptsGzip(request.headers)) return reply.send(await inflated(kept));
        return reply.header('content-encoding', 'gzip').send(kept.gzip);
      }
      const { input, uncomputable, historyStartsAt } = state;
      const chunks = contractChunks(input, { summary: request.query.summary === 'true' });
      // The first chunk compiles the matrix: a failure there is still an ordinary error answer.
      let current = chunks.next();
      // Last, so the document still starts with the pairs (the client splits them as they come).
      // With asOf, a record read from before its history began is said so, as in record reads.
      const history = historyStartsAt
        ? `,"historyStartsAt":${JSON.stringify(historyStartsAt)}`
        : '';
      const tail = `,"uncomputable":${JSON.stringify(uncomputable)}${history}}\n`;
      // The pairs are written as the matrix produces them, so a large facility is never held
      // in memory as one document.
      reply.hijack();
      const encoding = streamEncoding(request.headers);
      reply.raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'x-request-id': request.id,
        'content-type': 'application/json; charset=utf-8',
        vary: 'accept-encoding',
        ...(encoding ? { 'content-encoding': encoding } : {}),
      });
      // Compressed as it is written (about 55 bytes a pair instead of 540), never buffered whole.
      const compressor = compressorFor(encoding, reply.raw);
      const out: Writable = compressor ?? reply.raw;
      try {
        // Waits for the client between chunks, so a slow reader never makes the server buffer
        // the whole matrix. One chunk is read ahead, to know which is the last.
        while (!current.done) {
          const next = chunks.next();
          const text = next.done ? current.value.replace(/\}\n$/, tail) : current.value;
          if (reply.raw.destroyed) {
            compressor?.destroy();
            return;
          }
          if (!out.write(text)) await drainedOrClosed(out, reply.raw);
          current = next;
        }
      } catch (error) {
        // Half a document is already sent: end the connection so the client sees a failure
        // at once rather than waiting for the rest forever.
        request.log.error(error, 'MAC matrix stream failed');
        compressor?.destroy();
        reply.raw.destroy();
        return;
      }
      // With a compressor, its end flushes the last block and then ends the response.
      out.end();
    },
  );
}

/** Resolves when the stream can take more, or the socket is gone; leaves no listener behind. */
function drainedOrClosed(out: Writable, res: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      res.off('close', done);
      resolve();
    };
    out.on('drain', done);
    res.on('close', done);
  });
}
