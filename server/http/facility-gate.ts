import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import { AppError } from '../../core/errors/errors.ts';
import {
  featureOfPath,
  hasFeature,
  unavailableMessage,
  type FacilityFeatureKey,
  type FacilityKind,
} from '../../core/facilities/facility-features.ts';
import { MAX_ID } from '../../core/schemas/common.schemas.ts';
import type { TLicenseState } from '../../core/schemas/facilities.schemas.ts';
import type { Db } from '../db/db.ts';
import { auditRefusal } from './session-guard.ts';

const FACILITY_ROUTE = '/api/v2/plans/:plan/facilities/:facility';
const READS = new Set(['GET', 'HEAD']);

interface FacilityState extends FacilityKind {
  licenseState: TLicenseState;
}

async function facilityState(db: Db, facilityId: number): Promise<FacilityState | undefined> {
  const [row] = await db.query<FacilityState>(
    `select tier, product_type as "productType", license_state as "licenseState"
       from facilities where id = $1`,
    [facilityId],
  );
  return row;
}

function check(request: FastifyRequest, facility: FacilityState, feature?: FacilityFeatureKey) {
  if (feature && !hasFeature(facility, feature))
    throw new AppError('NotAllowed', unavailableMessage(facility, feature));
  if (
    facility.licenseState === 'grace-exceeded' &&
    !READS.has(request.method) &&
    request.session?.user.is_system_admin !== true
  )
    throw new AppError(
      'NotAllowed',
      'The licence of this facility is grace-exceeded: the facility is read-only until the licence is renewed',
    );
}

/**
 * One hook on every facility-scoped route, after its permission guard: the facility's tier and
 * product type must have the feature the path belongs to (core/facilities/facility-features.ts),
 * and a facility whose licence is grace-exceeded only answers reads, except to a system
 * administrator. Read from the database on each call, so a tier or licence change holds at once.
 * Must be added after runGuardsBeforeValidation and before the routes.
 */
export function gateFacilityRoutes(app: FastifyInstance, db: Db): void {
  app.addHook('onRoute', (route) => {
    if (route.url !== FACILITY_ROUTE && !route.url.startsWith(`${FACILITY_ROUTE}/`)) return;
    const feature = featureOfPath(route.url.slice(FACILITY_ROUTE.length + 1));
    const gate: preValidationHookHandler = async (request) => {
      // Routes without a guard have no session; their own code refuses them.
      if (!request.session) return;
      const facilityId = Number((request.params as { facility?: unknown }).facility);
      if (!Number.isInteger(facilityId) || facilityId < 1 || facilityId > MAX_ID) return;
      const facility = await facilityState(db, facilityId);
      if (!facility) return;
      await auditRefusal(
        db,
        request,
        { resource: 'Facility', action: feature ?? 'Write', facility: facilityId },
        async () => check(request, facility, feature),
      );
    };
    const before = route.preValidation;
    route.preValidation = [...(before === undefined ? [] : [before].flat()), gate];
  });
}
