import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  ZMethodLimitFitResponse,
  ZResidueMeasureRequest,
  ZResidueMeasureResponse,
} from '#core/schemas/analytical-methods.schemas.ts';
import { ZId } from '#core/schemas/common.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import { idOfPath } from '#server/http/permission-guards.ts';
import { methodLimitFit } from './method-limit-fit.service.ts';
import {
  readResidueMeasure,
  residueMeasureRight,
  setResidueMeasure,
} from './residue-measure.service.ts';

/** `GET {F}/analytical-method/{id}/limit-fit`: the method's LOQ against the limits it serves. */
export function registerAnalyticalMethodRoutes({ app, db, permit, permitNamed }: AppContext): void {
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

  const RESIDUE = `${F}/analytical-method/:id/residue-measure`;
  const RESIDUE_DESCRIPTION =
    'What the method measures: the active itself, total organic carbon (a result in mass of carbon, converted to the active by dividing by the carbon fraction of the actives of the study’s products, the lowest one, all carbon attributed to the active) or conductivity (no conversion: its results are not judged against the active’s limit).';

  r.get(
    RESIDUE,
    {
      preHandler: permit('ResidueMeasure', 'Get'),
      schema: {
        tags: ['analytical-methods'],
        summary: 'What the method measures (ResidueMeasure Get)',
        description: RESIDUE_DESCRIPTION,
        params: ZFacilityParams.extend({ id: ZId }),
        response: { 200: ZResidueMeasureResponse },
      },
    },
    async (request) => readResidueMeasure(db, request.params.facility, request.params.id),
  );

  r.put(
    RESIDUE,
    {
      preHandler: permitNamed(async (request, { facility }) => [
        'ResidueMeasure',
        await residueMeasureRight(
          db,
          facility,
          idOfPath(request, 'id'),
          (request.body as { residueMeasure?: unknown } | undefined)?.residueMeasure,
        ),
      ]),
      schema: {
        tags: ['analytical-methods'],
        summary:
          'Set what the method measures, with a reason (ResidueMeasure Add from the active, Delete back to it, else Modify)',
        description: `${RESIDUE_DESCRIPTION} Results entered afterwards are judged with it; results already judged keep their judgement.`,
        params: ZFacilityParams.extend({ id: ZId }),
        body: ZResidueMeasureRequest,
        response: { 200: ZResidueMeasureResponse },
      },
    },
    async (request) =>
      setResidueMeasure(
        db,
        actorOf(request),
        { planId: request.params.plan, facilityId: request.params.facility },
        request.params.id,
        request.body,
      ),
  );
}
