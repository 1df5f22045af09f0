import { ZFeatures } from '#core/schemas/auth.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { ssoFeatures } from '../sso/sso.service.ts';

/** The sign-in screens' flags: single sign-on as the plan's SSO settings say. */
export function registerFeatureRoutes({ app, db }: AppContext): void {
  typed(app).get(
    '/api/v2/features',
    {
      config: { public: true },
      schema: {
        tags: ['features'],
        summary: 'Feature flags the sign-in screens need',
        response: { 200: ZFeatures },
      },
    },
    async () => ssoFeatures(db),
  );
}
