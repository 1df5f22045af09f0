import { z } from 'zod';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { exportMasterData } from './master-export.ts';
import { IMPORT_BODY_LIMIT, importSlots } from './import-slots.ts';
import { importMasterData } from './master-import.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function registerMasterRoutes({ app, db, config, permit }: AppContext): void {
  const imports = importSlots(config.IMPORT_CONCURRENCY ?? (config.DATABASE_URL ? 2 : 1));
  // A workbook arrives as the raw body of the request.
  app.addContentTypeParser(
    [XLSX, 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMIT },
    (_req, body, done) => done(null, body),
  );
  const r = typed(app);
  const path = '/api/v2/plans/:plan/facilities/:facility/master';

  r.get(
    path,
    {
      preHandler: permit('Master', 'BulkExport'),
      schema: {
        tags: ['master data'],
        summary: 'The facility’s master data as an xlsx workbook, one sheet per section',
        description:
          'Sheets: Actives, Intermediates, Nitrosamines, Cleaning agents, Cleaning procedures, Analytical methods, Products, Equipment, Equipment groups, Productions, Production-Equipment matrix (X where a production uses an item) and mappings (production, product). Quantities take two columns, value and unit; references are names; list cells hold items separated by "; " with parts separated by " | ".',
        params: ZFacilityParams,
      },
    },
    async (request, reply) => {
      const buffer = await exportMasterData(db, request.params.facility);
      const [facility] = await db.query<{ name: string }>(
        'select name from facilities where id = $1',
        [request.params.facility],
      );
      const name = `Master Data - ${facility?.name ?? request.params.facility}.xlsx`;
      return reply
        .type(XLSX)
        .header(
          'content-disposition',
          `attachment; filename="${name.replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        )
        .send(buffer);
    },
  );

  r.post(
    path,
    {
      onRequest: imports.take,
      onSend: imports.settleOnSend,
      onRequestAbort: imports.settle,
      preHandler: permit('Master', 'BulkImport'),
      schema: {
        tags: ['master data'],
        summary: 'Import a master-data workbook: all rows or none',
        description:
          'Send the workbook (as exported) as the request body with content-type ' +
          XLSX +
          '. At most IMPORT_CONCURRENCY imports run at once on a server; another gets 429 TooManyRequests with Retry-After. Rows are matched to records by name: new names are created, known ones updated with the reason "Imported from <file>". Every row is checked; with any problem nothing changes and the answer is 422 DataValidationError whose `otherErrors` lists each problem as { sheet, row, column, message }.',
        params: ZFacilityParams,
        querystring: z.object({ fileName: z.string().max(200).optional() }),
        response: {
          200: z.object({
            created: z.number(),
            updated: z.number(),
            unchanged: z.number(),
            rows: z.number(),
          }),
        },
      },
    },
    async (request) => {
      const body = request.body;
      const buffer = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
      const { problems: _none, ...report } = await imports.run(request, () =>
        importMasterData(
          db,
          actorOf(request),
          { planId: request.params.plan, facilityId: request.params.facility },
          buffer,
          request.query.fileName ?? 'workbook.xlsx',
        ),
      );
      return report;
    },
  );
}
