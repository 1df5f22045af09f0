import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import type { TImpactPair } from '#core/schemas/change-assessments.schemas.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import { AppError } from '#core/errors/errors.ts';
import type { Db } from '#server/db/db.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { attachment, fileTimestamp } from '#server/http/download.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { facilityDateTimeSettings } from '../audit/audit-log.service.ts';
import { writeAudit } from '#server/db/audit-write.ts';
import { evaluatedItems, getChangeAssessment } from './change-assessments.read.ts';
import type { ImpactExportMeta } from './impact-export.ts';
import { renderImpactPdf } from './impact-pdf.ts';
import { renderImpactXlsx } from './impact-xlsx.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PATH = '/api/v2/plans/:plan/facilities/:facility/change-assessments/:id/impact';

/** The latest evaluation of an assessment with what its exports say about it. */
async function exportable(db: Db, facilityId: number, id: number) {
  const assessment = await getChangeAssessment(db, facilityId, id);
  const evaluated = await evaluatedItems(db, facilityId, id);
  if (!evaluated || !assessment.evaluation)
    throw new AppError('TransactionLocked', 'The change has not been evaluated yet');
  const [row] = await db.query<{ pairs: TImpactPair[]; name: string }>(
    `select e.pairs, coalesce(u.first_name || ' ' || u.last_name, '') as name
       from change_assessment_evaluations e left join users u on u.id = e.evaluated_by
      where e.assessment_id = $1`,
    [id],
  );
  const settings = await facilityDateTimeSettings(db, facilityId);
  const meta: ImpactExportMeta = {
    facilityName: settings.name,
    number: assessment.number,
    title: assessment.title,
    changeType: assessment.changeType,
    evaluatedAt: assessment.evaluation.evaluatedAt,
    evaluatedByName: row?.name ?? '',
    changes: assessment.changes.map((c) => ({ label: c.label, reason: c.reason })),
    settings,
  };
  return { meta, ...evaluated, pairs: row?.pairs ?? [] };
}

/** `GET …/{id}/impact/xlsx` and `/impact/pdf`: the impact, its decisions and its pairs. */
export function registerImpactDownloadRoutes({ app, db, permit }: AppContext): void {
  const formats = {
    xlsx: { type: XLSX, sheets: 'Summary, Impact items and Pairs sheets' },
    pdf: { type: 'application/pdf', sheets: 'the summary and the impact items with decisions' },
  } as const;
  for (const format of ['xlsx', 'pdf'] as const) {
    typed(app).get(
      `${PATH}/${format}`,
      {
        preHandler: permit('FacilityCleaningEvaluation', 'Get'),
        schema: {
          tags: ['change assessments'],
          summary: `The impact of the latest evaluation as ${format === 'xlsx' ? 'an xlsx workbook' : 'a PDF'}`,
          description: `${formats[format].sheets}; file name \`<number> Impact <timestamp>.${format}\`. Each export writes an audit row.`,
          params: ZFacilityParams.extend({ id: ZId }),
          produces: [formats[format].type],
        },
      },
      async (request, reply) => {
        const { plan, facility, id } = request.params;
        const { meta, items, pairs, summary } = await exportable(db, facility, id);
        const file =
          format === 'xlsx'
            ? await renderImpactXlsx(meta, items, pairs, summary)
            : await renderImpactPdf(
                meta,
                items,
                summary,
                { by: actorOf(request).userName ?? meta.evaluatedByName, at: new Date() },
                pairs,
              );
        await db.transaction((tx) =>
          writeAudit(tx, actorOf(request), {
            planId: plan,
            facilityId: facility,
            domain: 'ChangeAssessment',
            action: 'Export',
            entityId: id,
            newValues: { number: meta.number, format, items: items.length },
          }),
        );
        const name = `${meta.number} Impact ${fileTimestamp(new Date())}.${format}`;
        return reply
          .header('content-type', formats[format].type)
          .header('content-disposition', attachment(name))
          .header('cache-control', 'no-store')
          .send(file);
      },
    );
  }
}
