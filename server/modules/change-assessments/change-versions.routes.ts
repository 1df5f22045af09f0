import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { AppError } from '#core/errors/errors.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import { ZRecordVersionsResponse } from '#core/schemas/versions.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { recordVersions } from '#server/records/record-versions.ts';
import { numberOf } from './change-assessments.read.ts';

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : null);

/**
 * `GET {F}/change-assessments/{id}/versions`: every kept version of the assessment's header
 * (title, type, moc, cancellation, and the change set's counter), oldest first. The change set
 * each version was signed with is in the signed content (GET signatures/pdf).
 */
export function registerChangeVersionRoutes({ app, db, permit }: AppContext): void {
  typed(app).get(
    '/api/v2/plans/:plan/facilities/:facility/change-assessments/:id/versions',
    {
      preHandler: permit('FacilityCleaningEvaluation', 'Get'),
      schema: {
        tags: ['change assessments'],
        summary: 'Every version of a change assessment, oldest first',
        params: ZFacilityParams.extend({ id: ZId }),
        response: { 200: ZRecordVersionsResponse },
      },
    },
    async (request) => {
      const ref = {
        table: 'change_assessments',
        facilityId: request.params.facility,
        recordId: request.params.id,
        documentType: 'ChangeAssessment' as const,
      };
      const versions = await recordVersions(db, ref, (row) => ({
        number: numberOf(Number(row.seq)),
        title: row.title,
        changeType: row.change_type,
        description: row.description,
        mocId: row.moc_id,
        changeSetVersion: row.change_set_version,
        cancelledAt: iso(row.cancelled_at),
        cancelReason: row.cancel_reason,
      }));
      if (versions.length === 0)
        throw new AppError('NotFoundError', `Change assessment ${ref.recordId} was not found`);
      return { versions };
    },
  );
}
