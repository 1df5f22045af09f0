import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  ZDashboardResponse,
  ZMacLimitTrackerResponse,
  ZToxicityScoreResponse,
} from '#core/schemas/dashboard.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { facilityPermissions, sessionOf } from '#server/http/session-guard.ts';
import { dashboard, macLimitTracker, toxicityScore } from './dashboard.service.ts';

/** `GET {F}/dashboard`, `{F}/dashboard/toxicity-score`, `{F}/dashboard/mac_limit_tracker` (spec §7). */
export function registerDashboardRoutes({ app, db, permitMember, permit }: AppContext): void {
  const r = typed(app);
  const F = '/api/v2/plans/:plan/facilities/:facility';
  const tags = ['dashboard'];

  r.get(
    `${F}/dashboard`,
    {
      preHandler: permitMember(),
      schema: {
        tags,
        summary: 'Where the facility stands: every part the caller may read',
        description:
          'Equipment validation status (Validated, On Going, Failed, Overdue, Not covered; needs QualificationTask Get and Equipment Get), open change assessments by age (FacilityCleaningEvaluation Get), today’s release flags of runs (QualificationTask Get), the risk goal against the latest cleaning assessment (RiskCalculation Get) and the records waiting for my signature. A part the caller may not read is null; a user without a role in the facility gets 403.',
        params: ZFacilityParams,
        response: { 200: ZDashboardResponse },
      },
    },
    async (request) => {
      const { plan, facility } = request.params;
      const session = sessionOf(request);
      // The guard has checked the grant; its permissions decide which parts are shown.
      const permissions = facilityPermissions(session, plan, facility);
      return {
        dashboard: await dashboard(db, {
          facilityId: facility,
          userId: session.user.id,
          permissions,
        }),
      };
    },
  );

  r.get(
    `${F}/dashboard/toxicity-score`,
    {
      preHandler: permit('API', 'Get'),
      schema: {
        tags,
        summary: 'The actives by toxicity score (PDE bands of the worst-case ranking)',
        params: ZFacilityParams,
        response: { 200: ZToxicityScoreResponse },
      },
    },
    async (request) => ({ toxicityScore: await toxicityScore(db, request.params.facility) }),
  );

  r.get(
    `${F}/dashboard/mac_limit_tracker`,
    {
      preHandler: permit('RiskCalculation', 'Get'),
      schema: {
        tags,
        summary:
          'Limits that moved in the last 90 days and why, and the pairs within a factor of 2 of an LOQ',
        description:
          'Moves: the limits snapshots of the last 90 days whose limits differ from the snapshot before, with the approved record that put them in force. Near LOQ: the previous → next pairs whose swab or rinse limit is under twice an analytical method’s LOQ (a swab LOQ per swab, any other LOQ as a rinse concentration), the closest 20 listed.',
        params: ZFacilityParams,
        response: { 200: ZMacLimitTrackerResponse },
      },
    },
    async (request) => ({ macLimitTracker: await macLimitTracker(db, request.params.facility) }),
  );
}
