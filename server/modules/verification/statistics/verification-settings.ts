import type { z } from 'zod';
import { ZFacilityParams } from '#core/schemas/auth.schemas.ts';
import {
  ZVerificationSettingsBody,
  ZVerificationSettingsResponse,
  type TVerificationSettings,
  type ZOosRuleFields,
  type ZVerificationSettingsFields,
} from '#core/schemas/verification.schemas.ts';
import { validationError } from '#core/errors/errors.ts';
import type { Queryable } from '#server/db/db.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf } from '#server/http/session-guard.ts';
import {
  getRule,
  updateRule,
  type RuleRef,
} from '#server/modules/facility-rules/facility-rules.service.ts';

export type VerificationSettingsFields = z.infer<typeof ZVerificationSettingsFields> &
  z.infer<typeof ZOosRuleFields>;

/** The statistics thresholds, as stored (facility_rules, kind VerificationSettings). */
const settingsRef: RuleRef<VerificationSettingsFields> = {
  kind: 'VerificationSettings',
  key: '',
  domain: 'VerificationSettings',
  // core/verification/README.md, "Ongoing verification".
  // The OOS rule (core/verification/README.md, "Out-of-specification results"): one retest,
  // by another analyst, as the FDA OOS guidance expects a retest to be planned and limited.
  defaults: {
    ppuTarget: 2,
    alertPercent: 50,
    actionPercent: 80,
    ewmaLambda: 0.2,
    investigateAboveAction: false,
    maxRetests: 1,
    retestByOtherAnalyst: true,
  },
};

/** The facility's settings (the defaults at version 0 until set). */
export async function verificationSettings(
  q: Queryable,
  facilityId: number,
): Promise<TVerificationSettings> {
  const rule = await getRule(q, facilityId, settingsRef);
  return {
    ...rule.body,
    version: rule.version,
    updatedAt: rule.updatedAt === null ? null : new Date(rule.updatedAt).toISOString(),
  };
}

/** `GET`/`POST {F}/verification/settings`. */
export function registerVerificationSettingsRoutes({ app, db, permit }: AppContext): void {
  const r = typed(app);
  const F = '/api/v2/plans/:plan/facilities/:facility';

  r.get(
    `${F}/verification/settings`,
    {
      preHandler: permit('QualificationTask', 'Get'),
      schema: {
        tags: ['verification'],
        summary: "The facility's ongoing verification thresholds",
        description:
          'Ppu target (default 2), alert and action percent of limit (50, 80), the EWMA weight λ (0.2), and the out-of-specification rule: investigateAboveAction (false: only a failing result needs a laboratory investigation before it is set aside), maxRetests (1 per result) and retestByOtherAnalyst (true); version 0 until the facility sets them.',
        params: ZFacilityParams,
        response: { 200: ZVerificationSettingsResponse },
      },
    },
    async (request) => ({ settings: await verificationSettings(db, request.params.facility) }),
  );

  r.post(
    `${F}/verification/settings`,
    {
      preHandler: permit('QualificationTask', 'Modify'),
      schema: {
        tags: ['verification'],
        summary: "Set the facility's ongoing verification thresholds, with a reason and version",
        description:
          'Without a version the first time (version 0); after that the version read, or 409. The alert percent must be below the action percent. Audited field by field (domain VerificationSettings).',
        params: ZFacilityParams,
        body: ZVerificationSettingsBody,
        response: { 200: ZVerificationSettingsResponse },
      },
    },
    async (request) => {
      const { plan, facility } = request.params;
      const { reason, version, ...fields } = request.body;
      if (fields.alertPercent >= fields.actionPercent) {
        throw validationError([
          {
            property: 'alertPercent',
            constraints: { belowAction: 'The alert percent must be below the action percent' },
          },
        ]);
      }
      await updateRule(
        db,
        actorOf(request),
        { planId: plan, facilityId: facility },
        settingsRef,
        fields,
        { reason, version: version ?? 0 },
      );
      return { settings: await verificationSettings(db, facility) };
    },
  );
}
