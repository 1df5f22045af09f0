import { z } from 'zod';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  MAX_IMPORT_ROWS,
  ZResultsImportQuery,
  ZResultsImportResponse,
} from '#core/schemas/results-import.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { IMPORT_BODY_LIMIT, importSlots } from '#server/modules/master/import-slots.ts';
import { F, RESOURCE, scopeOf, TAGS } from '../route-base.ts';
import { importResults } from './results-import.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** POST {F}/results/import: a laboratory's file of results (issue 33). */
export function registerResultsImportRoutes({ app, db, config, permit }: AppContext): void {
  const imports = importSlots(config.IMPORT_CONCURRENCY ?? (config.DATABASE_URL ? 2 : 1));
  // xlsx and octet-stream bodies are read by the master-data import's parser, with its limit.
  app.addContentTypeParser(
    ['text/csv'],
    { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMIT },
    (_req, body, done) => done(null, body),
  );
  typed(app).post(
    `${F}/results/import`,
    {
      onRequest: imports.take,
      onSend: imports.settleOnSend,
      onRequestAbort: imports.settle,
      preHandler: permit(RESOURCE, 'Modify'),
      schema: {
        tags: TAGS,
        summary: "Import a laboratory's results (CSV or xlsx) with its saved column mapping",
        description: `Send the file as the request body, content-type text/csv or ${XLSX} (its first sheet), at most ${MAX_IMPORT_ROWS} results; \`mappingId\` names the laboratory's mapping (GET results/import-mappings). Each row is resolved to a run (ST-0001 run 2, or the study's latest run), a location of its sampling plan and a method (else the plan's), then entered as POST runs/{id}/results enters typed results: the same checks and the same judgement. \`dryRun=true\` answers every row with its judgement and every problem with its row and column, writing nothing. Otherwise the import is one transaction: with any problem nothing is written and the answer is 422 DataValidationError whose \`otherErrors\` lists each problem as { row, column, message }. A row whose run, location and sample number are already entered with the same result is \`unchanged\` (a file imported twice enters its results once); with a different result it is a problem (a correction is made on the run screen, with a reason). Censoring: =, < LOD, < LOQ, > upper limit (an empty cell is =). Values are read with the mapping's \`decimalSeparator\` (. by default, or ,); a value that could be read two ways under it (1,234.5 with a decimal comma) is a problem of its row. Date-times are ISO (2026-11-02 14:30 or 2026-11-02T14:30:00+01:00): one without an offset is read in the facility's time zone (its date and time settings), and one that time zone skips or passes twice is a problem asking for the offset.`,
        consumes: ['text/csv', XLSX],
        params: ZFacilityParams,
        querystring: ZResultsImportQuery,
        body: z.unknown().describe('The file: CSV text or an xlsx workbook'),
        response: { 200: ZResultsImportResponse },
      },
    },
    async (request) => {
      const body = request.body;
      const buffer = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
      const { mappingId, dryRun, fileName } = request.query;
      return imports.run(request, () =>
        importResults(db, actorOf(request), scopeOf(request.params), {
          mappingId,
          dryRun,
          buffer,
          fileName: fileName ?? 'results',
        }),
      );
    },
  );
}
