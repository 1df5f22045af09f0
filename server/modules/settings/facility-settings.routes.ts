import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  ZDateTimeSettingsResponse,
  ZDefaultUnit,
  ZDefaultUnitParams,
  ZDefaultUnitsResponse,
  ZUpdateDateTimeSettingsRequest,
  ZUpdateDefaultUnitRequest,
} from '#core/schemas/settings.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import {
  getDateTimeSettings,
  listDefaultUnits,
  updateDateTimeSettings,
  updateDefaultUnit,
} from './facility-settings.service.ts';

const F = '/api/v2/plans/:plan/facilities/:facility';

export function registerFacilitySettingsRoutes({
  app,
  db,
  permit,
  permitMember,
}: AppContext): void {
  const r = typed(app);

  // Every screen shows dates in the facility's settings, so anyone granted the facility reads them.
  const facilityMember = permitMember();

  r.get(
    `${F}/date-time-settings`,
    {
      preHandler: facilityMember,
      schema: {
        tags: ['settings'],
        summary: 'How the facility shows dates and times (any user of the facility)',
        params: ZFacilityParams,
        response: { 200: ZDateTimeSettingsResponse },
      },
    },
    async (request) => ({ dateTimeSettings: await getDateTimeSettings(db, request.params) }),
  );

  r.post(
    `${F}/date-time-settings`,
    {
      preHandler: permit('Facility', 'Modify'),
      schema: {
        tags: ['settings'],
        summary:
          'Change the time zone, date and time formats, country and significant digits (Facility Modify)',
        description:
          'Needs a reason and the `version` read with the settings: a stale version gets 409 VersionConflictError and changes nothing.',
        params: ZFacilityParams,
        body: ZUpdateDateTimeSettingsRequest,
        response: { 200: ZDateTimeSettingsResponse },
      },
    },
    async (request) => ({
      dateTimeSettings: await updateDateTimeSettings(db, actorOf(request), request.params, {
        settings: request.body.dateTimeSettings,
        version: request.body.version,
        reason: request.body.reason,
      }),
    }),
  );

  r.get(
    `${F}/default_units`,
    {
      preHandler: permit('DefaultUnit', 'Get'),
      schema: {
        tags: ['settings'],
        summary: 'The unit each measure starts in, with the units it allows',
        params: ZFacilityParams,
        response: { 200: ZDefaultUnitsResponse },
      },
    },
    async (request) => listDefaultUnits(db, request.params),
  );

  r.get(
    `${F}/archived/default_units`,
    {
      preHandler: permit('DefaultUnit', 'Get'),
      schema: {
        tags: ['settings'],
        summary: 'Archived default units: always none',
        description:
          "The specification lists an archived variant of the default units; a measure's default unit is changed (with a reason), never archived, so the list is always empty.",
        params: ZFacilityParams,
        response: { 200: ZDefaultUnitsResponse },
      },
    },
    async () => [],
  );

  r.post(
    `${F}/default_units/:id`,
    {
      preHandler: permit('DefaultUnit', 'Modify'),
      schema: {
        tags: ['settings'],
        summary: 'Change the default unit of one measure (with a reason; audited)',
        params: ZDefaultUnitParams,
        body: ZUpdateDefaultUnitRequest,
        response: { 200: ZDefaultUnit },
      },
    },
    async (request) => {
      const { plan, facility, id } = request.params;
      return updateDefaultUnit(
        db,
        actorOf(request),
        { plan, facility },
        id,
        request.body.unit,
        request.body.reason,
      );
    },
  );
}
