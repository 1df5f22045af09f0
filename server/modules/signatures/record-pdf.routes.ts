import { formatDateTime } from '#core/datetime/format-date-time.ts';
import { AppError } from '#core/errors/errors.ts';
import { documentTypeLabel } from '#core/labels/enum-labels.ts';
import { lowerLabel } from '#core/entities/labels.ts';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { isControlledDocumentType, ZRecordPdfQuery } from '#core/schemas/signatures.schemas.ts';
import type { Queryable } from '#server/db/db.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { attachment } from '#server/http/download.ts';
import { actorOf, sessionOf } from '#server/http/session-guard.ts';
import { facilityDateTimeSettings } from '#server/modules/audit/audit-log.service.ts';
import { auditNames } from '#server/modules/audit/audit-names.ts';
import { writeAudit } from '#server/db/audit-write.ts';
import type { ControlledRef, VersionRow } from '#server/records/controlled.ts';
import { contentNameRows, printableContent } from '#server/records/record-pdf-content.ts';
import { renderRecordPdf } from '#server/records/record-pdf.ts';
import { integrityOf, shownState } from '#server/records/record-integrity.ts';
import { signatureKey } from '#server/records/signature-binding.ts';
import { checkedSignatures } from '#server/records/signatures.read.ts';
import { signedActRegistration } from '#server/records/signature-write.ts';
import { readsSignatures } from './signatures.routes.ts';

/** One version of a record (the latest when no number is given), or a 404. */
async function versionFor(
  q: Queryable,
  ref: Omit<ControlledRef, 'planId'>,
  versionNumber: number | undefined,
): Promise<VersionRow> {
  const [row] = await q.query<VersionRow>(
    `select id, version_number, status, signature_state, content, title, approval_steps,
            allow_self_approval, version
       from controlled_versions
      where facility_id = $1 and document_type = $2 and document_id = $3
        and ($4::int is null or version_number = $4)
      order by version_number desc limit 1`,
    [ref.facilityId, ref.documentType, ref.documentId, versionNumber ?? null],
  );
  if (!row)
    throw new AppError(
      'NotFoundError',
      `No such ${lowerLabel(documentTypeLabel(ref.documentType))}${versionNumber ? ` version ${versionNumber}` : ''} in this facility`,
    );
  return row;
}

const noPrint = (): never => {
  throw new AppError('NotFoundError', 'This kind of signed act has no printed form');
};

/** `GET {F}/signatures/pdf`: a version of a controlled record with its signature manifest. */
export function registerRecordPdfRoute({ app, db, config, permitAny }: AppContext): void {
  typed(app).get(
    '/api/v2/plans/:plan/facilities/:facility/signatures/pdf',
    {
      preHandler: readsSignatures({ permitAny }),
      schema: {
        tags: ['signatures'],
        summary: 'A version of a controlled record as a PDF, with its signature manifest',
        description:
          'The record’s title, document type, version number and status (spec labels), the version’s content field by field (for `EquipmentRelease`, the item’s `versionNumber`-th release: its logbook entry as signed), and every signature of the version: printed name, signer role, meaning, signed at (UTC, ISO 8601, as `GET signatures` gives it), valid or not (and why not), and content hash (Part 11 ES-1). The latest version unless `versionNumber` names another; 404 NotFoundError for a record or version that does not exist. Needs the right to read the record’s signatures. Each download writes an audit row.',
        params: ZFacilityParams,
        querystring: ZRecordPdfQuery,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => {
      const { plan, facility } = request.params;
      const { documentType, documentId, versionNumber } = request.query;
      const ref = { facilityId: facility, documentType, documentId };
      // A signed act (a release) is signed on a row of its own, not on a controlled version.
      const version = isControlledDocumentType(ref.documentType)
        ? await versionFor(db, { ...ref, documentType: ref.documentType }, versionNumber)
        : await (signedActRegistration(ref.documentType)?.printedVersion ?? noPrint)(
            db,
            facility,
            documentId,
            versionNumber,
          );
      const key = await signatureKey(config, (message) => app.log.warn(message));
      const [signatures, settings, integrity] = await Promise.all([
        checkedSignatures(db, key, { ...ref, facilityIds: [facility] }),
        facilityDateTimeSettings(db, facility),
        integrityOf(db, key, ref, [documentId]),
      ]);
      // A version in force whose integrity is broken is never printed as Active (21 CFR 11.10(b)).
      const { status } = shownState(version, integrity(documentId));
      const actor = actorOf(request);
      const pdf = await renderRecordPdf({
        documentType,
        documentId,
        title: version.title,
        versionNumber: version.version_number,
        status,
        signatureState: version.signature_state,
        fields: printableContent(documentType, version.content, {
          names: await auditNames(db, plan, contentNameRows(documentType, version.content)),
          formatDateTime: (iso) => formatDateTime(iso, settings),
          digits: settings.significantDigits,
        }),
        signatures: signatures.filter((s) => s.versionNumber === version.version_number),
        facilityName: settings.name,
        settings,
        generatedBy: actor.userName ?? sessionOf(request).user.username,
        generatedAt: new Date(),
      });
      await db.transaction((tx) =>
        writeAudit(tx, actor, {
          planId: plan,
          facilityId: facility,
          domain: 'ElectronicSignature',
          action: 'Export',
          entityId: documentId,
          newValues: {
            documentType,
            documentId,
            versionNumber: version.version_number,
            format: 'pdf',
          },
        }),
      );
      return reply
        .header('content-type', 'application/pdf')
        .header(
          'content-disposition',
          attachment(`${version.title} v${version.version_number}.pdf`),
        )
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );
}
