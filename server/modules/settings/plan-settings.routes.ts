import {
  ZAllowedDomains,
  ZPasswordPolicy,
  ZUpdateAllowedDomainsRequest,
  ZUpdatePasswordPolicyRequest,
} from '#core/schemas/settings.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf, sessionOf } from '#server/http/session-guard.ts';
import {
  getAllowedDomains,
  getPasswordPolicy,
  updateAllowedDomains,
  updatePasswordPolicy,
} from './plan-settings.service.ts';

/**
 * Plan-wide account settings. They govern users, so they take the User permissions: reading
 * needs User Get, changing needs User Modify, in any facility of the plan.
 */
export function registerPlanSettingsRoutes({ app, db, permitPlan }: AppContext): void {
  const r = typed(app);
  const planOf = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).user.plan_id;

  r.get(
    '/api/v2/users/password-policy',
    {
      preHandler: permitPlan('User', 'Get'),
      schema: {
        tags: ['settings'],
        summary: "The plan's password policy: composition, lockout, ageing and reuse",
        response: { 200: ZPasswordPolicy },
      },
    },
    async (request) => getPasswordPolicy(db, planOf(request)),
  );

  r.put(
    '/api/v2/users/password-policy',
    {
      preHandler: permitPlan('User', 'Modify'),
      schema: {
        tags: ['settings'],
        summary: 'Change the password policy (with a reason; audited field by field)',
        body: ZUpdatePasswordPolicyRequest,
        response: { 200: ZPasswordPolicy },
      },
    },
    async (request) => updatePasswordPolicy(db, actorOf(request), planOf(request), request.body),
  );

  r.get(
    '/api/v2/users/allowedDomains',
    {
      preHandler: permitPlan('User', 'Get'),
      schema: {
        tags: ['settings'],
        summary: 'E-mail domains that new users must belong to (empty: any domain)',
        response: { 200: ZAllowedDomains },
      },
    },
    async (request) => getAllowedDomains(db, planOf(request)),
  );

  r.put(
    '/api/v2/users/allowedDomains',
    {
      preHandler: permitPlan('User', 'Modify'),
      schema: {
        tags: ['settings'],
        summary: 'Replace the allowed e-mail domains (with a reason; audited)',
        body: ZUpdateAllowedDomainsRequest,
        response: { 200: ZAllowedDomains },
      },
    },
    async (request) => updateAllowedDomains(db, actorOf(request), planOf(request), request.body),
  );
}
