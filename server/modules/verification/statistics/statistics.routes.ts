import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZStatisticsQuery, ZStatisticsResponse } from '#core/schemas/verification.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { acceptsGzip } from '#server/http/compression.ts';
import { statisticsAnswer, writeStatisticsResponse } from './statistics-answer.ts';
import { inflated, keptStatistics } from './statistics-cache.ts';
import { registerVerificationSettingsRoutes } from './verification-settings.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';

/** `GET {F}/verification/statistics` and the settings it is judged by. */
export function registerStatisticsRoutes(context: AppContext): void {
  const { app, db, permit } = context;
  const r = typed(app);
  r.get(
    `${F}/verification/statistics`,
    {
      preHandler: permit('QualificationTask', 'Get'),
      schema: {
        tags: ['verification'],
        summary:
          'Ongoing verification statistics of one equipment, production, residue type or location',
        description:
          'Every counted sample result (not superseded nor invalidated, with a percent of limit; taken at its sampling time, else its entry) and every result of a historical study marked "Count in statistics", as percent of its own limit, oldest first, sent as columns (`points`: one array per field; the moving range and EWMA follow from the values, the mean and λ as core/verification/statistics-columns.ts computes them): individuals / moving range, EWMA and Ppu with its lower 95 % bound, judged by the facility\'s verification settings. Results invalidated by a laboratory investigation QA approved are left out of every figure and answered apart (invalidatedCount, invalidated). `key` is the equipment, production or sampling location id, or the residue type; from/to are whole UTC days. 404 for a key the facility does not have.',
        params: ZFacilityParams,
        querystring: ZStatisticsQuery,
        response: { 200: ZStatisticsResponse },
      },
    },
    async (request, reply) => {
      const { facility } = request.params;
      const { groupBy, key, from, to } = request.query;
      const kept = await keptStatistics(
        db,
        facility,
        JSON.stringify([groupBy, key, from ?? null, to ?? null]),
        async () => writeStatisticsResponse(await statisticsAnswer(db, facility, request.query)),
      );
      // Sent as kept, past the schema's serializer: writeStatisticsResponse wrote it as that
      // would, so the bytes are a ZStatisticsResponse (the tests read them back through it).
      void reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
      if (!acceptsGzip(request.headers)) return reply.send((await inflated(kept)) as never);
      return reply.header('content-encoding', 'gzip').send(kept.gzip as never);
    },
  );
  registerVerificationSettingsRoutes(context);
}
