import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import { ZMethodLimitFitResponse } from '#core/schemas/analytical-methods.schemas.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { methodLimitFit } from './method-limit-fit.service.ts';

/** `GET {F}/analytical-method/{id}/limit-fit`: the method's LOQ against the limits it serves. */
export function registerAnalyticalMethodRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  const F = '/api/v2/plans/:plan/facilities/:facility';

  r.get(
    `${F}/analytical-method/:id/limit-fit`,
    {
      preHandler: permit('AnalyticalMethod', 'Get'),
      schema: {
        tags: ['analytical-methods'],
        summary: 'The method’s LOQ against the tightest swab and rinse limit it is used for',
        description:
          'Among the equipment whose (unarchived) samples name the method, the lowest swab limit (mg/swab) over its swab samples and the lowest rinse limit (mg/ml) over its rinse samples, as the equipment-limits report gives them (the facility’s swab and rinse sampling types, the Chemical policy’s recovery), with the equipment and the previous → next pair that set it. The LOQ is converted to the same unit as a result’s LOQ is (a swab LOQ given as a concentration × the swab extraction volume; null with a note when it cannot be). `canDetect` is LOQ ≤ limit. `isUsed` is false when no sample names the method. `unreachable` lists every limit the method cannot show, one per sampling location (and sample type) whose sample names it: the limit a run there would judge against, equipment-wise over every pair of the facility’s current limits, with the pair that sets it and the reason (LOQ ÷ recovery above it, or an LOQ that cannot be expressed in its unit), as protocols and runs apply the rule.',
        params: ZFacilityParams.extend({ id: ZId }),
        response: { 200: ZMethodLimitFitResponse },
      },
    },
    async (request) => methodLimitFit(db, request.params.facility, request.params.id),
  );
}
