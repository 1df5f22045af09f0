import { z } from 'zod';
import { productionsDef } from '#core/entities/defs/index.ts';
import { ZRefusedAsOf } from '#core/schemas/versions.schemas.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  ZMacGrid,
  ZMacGridQuery,
  ZMacMatrixExportQuery,
  ZMacPairsPage,
  ZMacPairsQuery,
  ZMacProductionParams,
} from '#core/schemas/mac-matrix.schemas.ts';
import type { Db } from '#server/db/db.ts';
import { getEntity, historyNote } from '#server/entities/entity-store.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { attachment, fileTimestamp } from '#server/http/download.ts';
import { actorOf, sessionOf } from '#server/http/session-guard.ts';
import { facilityDateTimeSettings } from '../audit/audit-log.service.ts';
import { writeAudit, type Actor } from '#server/db/audit-write.ts';
import { macGridText } from './mac-grid.ts';
import { macMatrixCache } from './mac-matrix-cache.ts';
import { writeMacMatrixXlsx } from './mac-matrix-xlsx.ts';
import { pagePairs } from './mac-pairs.ts';
import { renderMacPreviewPdf, type MacPdfVariant } from './mac-production-pdf.ts';

const base = '/api/v2/plans/:plan/facilities/:facility';
const tags = ['limits'];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
// The preview PDF is the limits as they are now; the production-limits report is the copy that
// keeps them as they were when it was generated, and regenerates them as then.
const PREVIEW_ONLY_NOW = ZRefusedAsOf(
  'this PDF previews the limits as they are now; the production-limits report keeps them as of its generation',
);

/** Taking GMP limits out of the system is recorded, as the audit-log export is. */
function auditExport(
  db: Db,
  actor: Actor,
  planId: number,
  facilityId: number,
  newValues: Record<string, unknown>,
) {
  return db.transaction((tx) =>
    writeAudit(tx, actor, {
      planId,
      facilityId,
      domain: 'RiskCalculation',
      action: 'Export',
      newValues,
    }),
  );
}

export function registerMacExportRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  const guard = permit('RiskCalculation', 'Get');

  r.get(
    `${base}/mac-matrix/export`,
    {
      preHandler: guard,
      schema: {
        tags,
        summary: 'The MAC matrix as an xlsx workbook (MAC Matrix, Pairs, Inputs)',
        description:
          'Sheets: "MAC Matrix" (previous products as rows × next products as columns, the governing MACO in mg, empty where the two share no equipment, "no limit" where no criterion has its data), "Pairs" (one row per pair: shared equipment and area, MACO by each criterion, governing criterion and active, SAL, swab and rinse limits, flags; units in the headers; continued on "Pairs (2)" beyond Excel\'s row limit; each number holds its full value and, up to 200 products, a number format that shows it at the facility\'s significant digits) and "Inputs" (facility, production, date and who exported, units, the Chemical cleaning limit policy, and each product or equipment item left out because its data cannot be computed, with the reason). Streamed as it is written. File name `MAC Matrix <facility> <timestamp>.xlsx`. Each export writes an audit row. `asOf` (ISO date-time or date): the facility’s data and the policy approved at that moment, as the matrix and its pairs answer it; the Inputs sheet says so ("Data as of (UTC)").',
        params: ZFacilityParams,
        querystring: ZMacMatrixExportQuery,
        produces: [XLSX],
      },
    },
    async (request, reply) => {
      const { facility, plan } = request.params;
      const { productionId, asOf } = request.query;
      const { input, uncomputable } = await macMatrixCache(db).get(db, facility, {
        productionId,
        asOf,
      });
      const [settings, production] = await Promise.all([
        facilityDateTimeSettings(db, facility),
        productionId === undefined
          ? null
          : getEntity(db, productionsDef, facility, productionId, false, { asOf }),
      ]);
      const actor = actorOf(request);
      const exportedAt = new Date();
      const name = `MAC Matrix ${settings.name} ${fileTimestamp(exportedAt)}.xlsx`;
      await auditExport(db, actor, plan, facility, {
        report: 'MAC matrix',
        format: 'xlsx',
        productionId: productionId ?? null,
        asOf: asOf ?? null,
        products: input.products.length,
      });
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'x-request-id': request.id,
        'content-type': XLSX,
        'content-disposition': attachment(name),
        'cache-control': 'no-store',
      });
      // The answer starts now, not at the zip's first block: the browser shows the download.
      res.flushHeaders();
      try {
        await writeMacMatrixXlsx(
          input,
          {
            facilityName: settings.name,
            productionName: production ? (production.name as string) : null,
            exportedBy: actor.userName ?? sessionOf(request).user.username,
            exportedAt,
            asOf,
            uncomputable,
            significantDigits: settings.significantDigits,
          },
          res,
          () => res.destroyed,
        );
      } catch (error) {
        // Headers are gone: cutting the connection is the only way to say the file is incomplete.
        request.log.error({ err: error }, 'MAC matrix export failed');
        res.destroy();
      }
    },
  );

  r.get(
    `${base}/mac-matrix/pairs`,
    {
      preHandler: guard,
      schema: {
        tags,
        summary: 'One page of the MAC matrix’s pairs, filtered and sorted',
        description:
          'For matrices too large to download: the pairs that match previous, next (product names), equipment (an item both share) and failingOnly (pairs with no limit or a flag raised), in matrix order or sorted by previous, next, maco or sal ("-" for descending; pairs without a value last). Returns the page and the total that match, and `uncomputable`: the products and equipment left out because the engine cannot compute with their stored data, and why. Units as in the MAC matrix (mg, sqcm, mg/sqcm). `swabLimitBasis` and `rinseLimitBasis` (beside the swab and rinse limits) say which rule set each: `fixed` where the policy’s fixed sample limit, a ceiling, is lower than the calculated limit and governs. `asOf` (ISO date-time): the pairs as the facility’s data and approved policy gave them then; a record made before versions were kept and changed since counts as first kept, and `historyStartsAt` then says from which moment.',
        params: ZFacilityParams,
        querystring: ZMacPairsQuery,
        response: { 200: ZMacPairsPage },
      },
    },
    async (request) => {
      const state = await macMatrixCache(db).get(db, request.params.facility, {
        productionId: request.query.productionId,
        asOf: request.query.asOf,
      });
      return {
        ...pagePairs(state, request.query),
        uncomputable: state.uncomputable,
        ...historyNote([state]),
      };
    },
  );

  r.get(
    `${base}/mac-matrix/grid`,
    {
      preHandler: guard,
      schema: {
        tags,
        summary: 'The whole MAC matrix in columns, for a product × product grid',
        description:
          'Every pair of GET mac-matrix/pairs in matrix order, compact: names once (products, actives, criterion keys, flag texts), units once, then one array per field with one entry per pair (next product, governing MACO, SAL, governing criterion and active, SAL capped, flags as bits). The pairs of previous product p are `rowStart[p]` up to `rowStart[p + 1]`. About 60 bytes a pair before compression; the shared equipment, area and each criterion of one pair are on GET mac-matrix/pairs. `productionId` and `asOf` as on the pairs.',
        params: ZFacilityParams,
        querystring: ZMacGridQuery,
        response: { 200: ZMacGrid },
      },
    },
    async (request, reply) => {
      const state = await macMatrixCache(db).get(db, request.params.facility, {
        productionId: request.query.productionId,
        asOf: request.query.asOf,
      });
      // Sent as the cached text, past the schema's serializer: checking and formatting a
      // million pairs again takes seconds. It is a ZMacGrid by type (mac-grid.ts); the tests
      // check the answer against the schema.
      return reply.type('application/json; charset=utf-8').send(macGridText(state) as never);
    },
  );

  const pdfRoute = (path: string, variant: MacPdfVariant, summary: string, description: string) =>
    r.get(
      path,
      {
        preHandler: guard,
        schema: {
          tags,
          summary,
          description,
          params: ZMacProductionParams,
          querystring: z.object({ asOf: PREVIEW_ONLY_NOW }),
          produces: ['application/pdf'],
        },
      },
      async (request, reply) => {
        const { facility, plan, id } = request.params;
        const { input, uncomputable } = await macMatrixCache(db).get(db, facility, {
          productionId: id,
          residueType: variant === 'nitrosamine' ? 'Nitrosamine' : 'Chemical',
        });
        const [settings, production] = await Promise.all([
          facilityDateTimeSettings(db, facility),
          getEntity(db, productionsDef, facility, id),
        ]);
        const actor = actorOf(request);
        const productionName = production.name as string;
        const pdf = await renderMacPreviewPdf({
          input,
          uncomputable,
          variant,
          facilityName: settings.name,
          productionName,
          settings,
          generatedBy: actor.userName ?? sessionOf(request).user.username,
          generatedAt: new Date(),
        });
        await auditExport(db, actor, plan, facility, {
          report: variant === 'nitrosamine' ? 'Nitrosamine limits' : 'MAC matrix',
          format: 'pdf',
          productionId: id,
        });
        const kind = variant === 'nitrosamine' ? 'Nitrosamine Limits' : 'MAC Matrix';
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', attachment(`${kind} ${productionName}.pdf`))
          .header('cache-control', 'no-store')
          .send(pdf);
      },
    );

  pdfRoute(
    `${base}/macMatrix/production/:id`,
    'chemical',
    'The MAC matrix of one production as a PDF',
    'The governing MACO of every pair of the production’s products on its equipment, then each pair’s derivation (formula and inputs with units, MACO, shared area, SAL), with the facility, the date and page numbers. Products and equipment left out because their stored data cannot be computed are listed first, with the reason (section "Left out of the limits"). 404 NotFoundError for an unknown or archived production. Each download writes an audit row.',
  );
  pdfRoute(
    `${base}/macMatrix/production/:id/nitrosamine`,
    'nitrosamine',
    'The nitrosamine limits of one production as a PDF',
    'The same matrix under the facility’s Nitrosamine cleaning limit policy, where each active’s acceptable intake (ICH M7) is the HBEL, with the acceptable intakes listed first, and what was left out, as in the MAC matrix PDF. 404 NotFoundError for an unknown or archived production. Each download writes an audit row.',
  );
}
