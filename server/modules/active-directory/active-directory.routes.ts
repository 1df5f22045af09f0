import type { FastifyRequest } from 'fastify';
import {
  ZActiveDirectoryPingResponse,
  ZActiveDirectorySearchRequest,
  ZActiveDirectorySearchResponse,
  ZActiveDirectorySettingsResponse,
  ZAddDirectoryUserRequest,
  ZUpdateActiveDirectorySettingsRequest,
} from '#core/schemas/active-directory.schemas.ts';
import { ZUserWithKey } from '#core/schemas/users.schemas.ts';
import { publicUrl } from '#server/config.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { idempotentCreate } from '#server/http/idempotency.ts';
import { actorOf, sessionOf } from '#server/http/session-guard.ts';
import {
  getActiveDirectorySettings,
  updateActiveDirectorySettings,
} from './active-directory.settings.ts';
import { addDirectoryUser, pingDirectory, searchDirectory } from './active-directory.service.ts';

const TAGS = ['settings'];
const BASE = '/api/v2/activeDirectory';

function planOf(request: FastifyRequest): number {
  return sessionOf(request).user.plan_id;
}

/**
 * Active Directory (spec §7 activeDirectory: settings, ping, search), plan-wide like the SSO
 * settings and guarded by the same User permissions; adding an account needs User Add.
 */
export function registerActiveDirectoryRoutes({
  app,
  db,
  config,
  mailer,
  permitPlan,
}: AppContext): void {
  const r = typed(app);

  r.get(
    `${BASE}/settings`,
    {
      preHandler: permitPlan('User', 'Get'),
      schema: {
        tags: TAGS,
        summary: "The plan's Active Directory settings (the bind password is never returned)",
        response: { 200: ZActiveDirectorySettingsResponse },
      },
    },
    async (request) => ({
      activeDirectorySettings: await getActiveDirectorySettings(db, planOf(request)),
    }),
  );

  for (const method of ['post', 'put'] as const) {
    r[method](
      `${BASE}/settings`,
      {
        preHandler: permitPlan('User', 'Modify'),
        schema: {
          tags: TAGS,
          summary: 'Change the Active Directory settings (bind password stored encrypted; audited)',
          body: ZUpdateActiveDirectorySettingsRequest,
          response: { 200: ZActiveDirectorySettingsResponse },
        },
      },
      async (request) => ({
        activeDirectorySettings: await updateActiveDirectorySettings(
          db,
          config,
          actorOf(request),
          planOf(request),
          request.body,
        ),
      }),
    );
  }

  r.post(
    `${BASE}/settings/ping`,
    {
      preHandler: permitPlan('User', 'Modify'),
      schema: {
        tags: TAGS,
        summary: 'Bind as the service account and read the base DN',
        response: { 200: ZActiveDirectoryPingResponse },
      },
    },
    async (request) => pingDirectory(db, config, planOf(request)),
  );

  r.post(
    `${BASE}/search`,
    {
      preHandler: permitPlan('User', 'Add'),
      schema: {
        tags: TAGS,
        summary: 'Directory accounts whose fields contain the query (at most 50)',
        body: ZActiveDirectorySearchRequest,
        response: { 200: ZActiveDirectorySearchResponse },
      },
    },
    async (request) => ({
      activeDirectoryUsers: await searchDirectory(
        db,
        config,
        planOf(request),
        request.body.query,
        request.body.fields,
      ),
    }),
  );

  r.post(
    `${BASE}/users`,
    {
      preHandler: permitPlan('User', 'Add'),
      schema: {
        tags: ['users'],
        summary: 'Add a directory account as a user of auth type ad (User Add)',
        description:
          "Names, e-mail and groups are read from the directory; the settings' group mapping gives the facilities and roles.",
        body: ZAddDirectoryUserRequest,
        response: { 200: ZUserWithKey },
      },
    },
    async (request) => {
      const { user } = sessionOf(request);
      const scope = { actor: actorOf(request), planId: user.plan_id, selfId: user.id };
      return idempotentCreate(db, request, (tx) =>
        addDirectoryUser(tx, mailer, config, scope, request.body, publicUrl(config)),
      );
    },
  );
}
