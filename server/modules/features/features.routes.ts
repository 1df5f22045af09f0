import { ZFeatures } from '../../../core/schemas/auth.schemas.ts';
import { typed, type AppContext } from '../../http/app-context.ts';

/** Single sign-on is not configured in this release; the flags say so rather than pretend. */
export function registerFeatureRoutes({ app }: AppContext): void {
  typed(app).get(
    '/api/v2/features',
    {
      schema: {
        tags: ['features'],
        summary: 'Feature flags the sign-in screens need',
        response: { 200: ZFeatures },
      },
    },
    async () => ({ SSO: false, SSOProvider: null, logoutUrl: null }),
  );
}
