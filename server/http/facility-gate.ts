import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import { AppError } from '#core/errors/errors.ts';
import {
  featureOfPath,
  hasFeature,
  unavailableMessage,
  type FacilityFeatureKey,
} from '#core/facilities/facility-features.ts';
import { MAX_ID } from '#core/schemas/common.schemas.ts';
import type { Db } from '../db/db.ts';
import type { AccessCache, FacilityState } from './access-cache.ts';
import { auditRefusal } from './refusal-audit.ts';

const FACILITY_ROUTE = '/api/v2/plans/:plan/facilities/:facility';
const READS = new Set(['GET', 'HEAD']);

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
 * administrator. Read through the access cache, whose epoch moves with any change of a facility,
 * so a tier or licence change holds as a permission change does (access-cache.ts).
 * Must be added after runGuardsBeforeValidation and before the routes.
 */
export function gateFacilityRoutes(app: FastifyInstance, db: Db, access: AccessCache): void {
  app.addHook('onRoute', (route) => {
    if (route.url !== FACILITY_ROUTE && !route.url.startsWith(`${FACILITY_ROUTE}/`)) return;
    const feature = featureOfPath(route.url.slice(FACILITY_ROUTE.length + 1));
    const gate: preValidationHookHandler = async (request) => {
      // Routes without a guard have no session; their own code refuses them.
      if (!request.session) return;
      const facilityId = Number((request.params as { facility?: unknown }).facility);
      if (!Number.isInteger(facilityId) || facilityId < 1 || facilityId > MAX_ID) return;
      const facility = await access.facility(facilityId);
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
