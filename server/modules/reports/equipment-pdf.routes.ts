import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { attachment } from '#server/http/download.ts';
import { actorOf, sessionOf } from '#server/http/session-guard.ts';
import { facilityDateTimeSettings } from '../audit/audit-log.service.ts';
import { writeAudit } from '#server/db/audit-write.ts';
import { ZChangeoverQuery } from '#core/schemas/changeover.schemas.ts';
import { changeoverSheetContent, changeoverSheetData } from './changeover-sheet.ts';
import { renderPreviewPdf } from './controlled-pdf.ts';
import {
  areaCalculationContent,
  areaCalculationData,
  samplingSheetContent,
  samplingSheetData,
} from './sampling-sheet.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';
const tags = ['Reports'];
const ZEquipmentParams = ZFacilityParams.extend({ id: ZId });
const ZAreaParams = ZFacilityParams.extend({ id: ZId, productionId: ZId });
const permissionText =
  'Needs CEReport GeneratePDF or Equipment Get; 404 NotFoundError for an unknown item.';

/**
 * The sampling sheet and the area calculation of an item of equipment (spec §7 PDF blobs):
 * drawn on request from the data now, on the controlled layout, and not stored.
 */
export function registerEquipmentPdfRoutes({ app, db, permitAny }: AppContext): void {
  const r = typed(app);
  // Either permission of spec §6 that reaches these files: the report one, or the item's own.
  const guard = permitAny(() => [
    ['CEReport', 'GeneratePDF'],
    ['Equipment', 'Get'],
  ]);

  const send = async (
    request: FastifyRequest & { params: { plan: number; facility: number; id?: number } },
    reply: FastifyReply,
    file: {
      name: string;
      title: string;
      data: unknown;
      /** The PDF's body at the facility's significant digits. */
      content: (digits: number | undefined) => unknown[];
      report: string;
      /** What the export is of, in the audit trail: the item, unless named. */
      of?: { domain: 'Equipment' | 'Production'; id: number; parameters: Record<string, unknown> };
    },
  ) => {
    const { plan, facility } = request.params;
    const of = file.of ?? {
      domain: 'Equipment' as const,
      id: request.params.id!,
      parameters: { equipmentId: request.params.id },
    };
    const settings = await facilityDateTimeSettings(db, facility);
    const actor = actorOf(request);
    const pdf = await renderPreviewPdf({
      facilityName: settings.name,
      title: file.title,
      settings,
      generatedBy: actor.userName ?? sessionOf(request).user.username,
      generatedAt: new Date(),
      data: file.data,
      parameters: { report: file.report, ...of.parameters },
      content: file.content(settings.significantDigits),
    });
    // Taking GMP data out of the system is recorded, as every export is.
    await db.transaction((tx) =>
      writeAudit(tx, actor, {
        planId: plan,
        facilityId: facility,
        domain: of.domain,
        action: 'Export',
        entityId: of.id,
        newValues: { report: file.report, format: 'pdf' },
      }),
    );
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', attachment(file.name))
      .header('cache-control', 'no-store')
      .send(pdf);
  };

  r.get(
    `${F}/equipment/:id/pdf`,
    {
      preHandler: guard,
      schema: {
        tags,
        summary: "The item's sampling sheet ('sampling-sheet.pdf')",
        description: `The item's sampling locations and their samples, each with its swab limit (mg/swab, for the sample's swab area, else the location's, else the facility's swab sampling type) or rinse limit (mg/ml, for the sample's rinse volume, else the facility's), from the item's lowest SAL over the pairs that share it and the Chemical policy's recovery and caps; on the controlled layout as a 'Preview'. ${permissionText}`,
        params: ZEquipmentParams,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => {
      const data = await samplingSheetData(db, request.params.facility, request.params.id);
      return send(request, reply, {
        name: 'sampling-sheet.pdf',
        title: `Sampling sheet · ${data.equipment.name}`,
        data,
        content: (digits) => samplingSheetContent(data, digits),
        report: 'sampling-sheet',
      });
    },
  );

  r.get(
    `${F}/equipments/:id/area-calculation-pdf/:productionId`,
    {
      preHandler: guard,
      schema: {
        tags,
        summary: "The item's area calculation in a production",
        description: `The second id is the production: the product-contact area of each item of its equipment, the total a limit is spread over (SAL = MACO / shared area), the item's share of it, and the swab areas of the item's sampling locations against its own area. 404 NotFoundError when the item is not used in that production. ${permissionText}`,
        params: ZAreaParams,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => {
      const { facility, id, productionId } = request.params;
      const data = await areaCalculationData(db, facility, id, productionId);
      return send(request, reply, {
        name: `Area calculation ${data.equipment.name} ${data.production.name}.pdf`,
        title: `Area calculation · ${data.equipment.name} in ${data.production.name}`,
        data,
        content: (digits) => areaCalculationContent(data, digits),
        report: 'area-calculation',
      });
    },
  );

  r.get(
    `${F}/changeovers/pdf`,
    {
      preHandler: guard,
      schema: {
        tags,
        summary: "A changeover's sampling sheet ('changeover-sampling-sheet.pdf')",
        description: `The changeover decision of GET {F}/changeovers (same query) on paper: the pair's limits, the cleaning procedure, whether a Validated study covers it or why verification is required, the numbered samples with their method and limit and room for the result, and the pictures of the equipment with the numbered locations marked where they have been placed (in their risk level's colour). On the controlled layout as a 'Preview'. 404/422 as the decision. ${permissionText}`,
        params: ZFacilityParams,
        querystring: ZChangeoverQuery,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => {
      const query = request.query;
      const data = await changeoverSheetData(db, request.params.facility, query, new Date());
      return send(request, reply, {
        name: 'changeover-sampling-sheet.pdf',
        title: `Sampling sheet · ${data.from} -> ${data.to} on ${data.production}`,
        data,
        content: (digits) => changeoverSheetContent(data, digits),
        report: 'changeover-sampling-sheet',
        of: { domain: 'Production', id: query.production, parameters: { ...query } },
      });
    },
  );
}
