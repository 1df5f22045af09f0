import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '#core/errors/errors.ts';
import { ZIdParams, ZPage } from '#core/schemas/common.schemas.ts';
import {
  ID_NAME_MEDIA_TYPE,
  ZArchiveUserRequest,
  ZCreateUserRequest,
  ZIdName,
  ZReasonBody,
  ZResendInvitationRequest,
  ZUpdateUserRequest,
  ZUser,
  ZUserListQuery,
  ZUserWithKey,
} from '#core/schemas/users.schemas.ts';
import { publicUrl } from '#server/config.ts';
import { idempotentCreate } from '#server/http/idempotency.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { pageOf } from '#server/db/paging.ts';
import { actorOf, sessionOf } from '#server/http/session-guard.ts';
import { listUsers, toUser, userIdNames } from './users-admin.repo.ts';
import {
  archiveUser,
  cancelSecretKey,
  createUser,
  getUser,
  resendInvitation,
  setAccountState,
  updateUser,
  type AccountAction,
  type AdminScope,
} from './users-admin.service.ts';
import { editOrRestore } from '#server/http/permission-guards.ts';

const TAGS = ['users'];

function scopeOf(request: FastifyRequest): AdminScope {
  const { user } = sessionOf(request);
  return { actor: actorOf(request), planId: user.plan_id, selfId: user.id };
}

/** Users are plan-wide: each call needs the User permission in a facility of the user's plan. */
export function registerUsersAdminRoutes({
  app,
  db,
  config,
  mailer,
  permitPlan,
}: AppContext): void {
  const r = typed(app);
  const baseUrl = publicUrl(config);
  const canGet = permitPlan('User', 'Get');
  const canModify = permitPlan('User', 'Modify');
  const canArchive = permitPlan('User', 'Archive');

  r.get(
    '/api/v2/users',
    {
      preHandler: canGet,
      schema: {
        tags: TAGS,
        summary: 'List users (User Get)',
        description: `Pages of users with search over names, Employee ID, e-mail and department; \`archived=true\` lists archived users. With \`Accept: ${ID_NAME_MEDIA_TYPE}\` the answer is \`[{ id, name }]\` of all active users.`,
        querystring: ZUserListQuery,
        response: { 200: z.union([ZPage(ZUser), z.array(ZIdName)]) },
      },
    },
    async (request, reply) => {
      const { planId } = scopeOf(request);
      if ((request.headers.accept ?? '').includes(ID_NAME_MEDIA_TYPE)) {
        reply.type(ID_NAME_MEDIA_TYPE);
        return userIdNames(db, planId, request.query.search);
      }
      const { rows, total } = await listUsers(db, planId, request.query);
      return pageOf(rows.map(toUser), total, request.query);
    },
  );

  r.get(
    '/api/v2/users/:id',
    {
      preHandler: canGet,
      schema: {
        tags: TAGS,
        summary: 'One user (User Get)',
        params: ZIdParams,
        response: { 200: ZUser },
      },
    },
    async (request) => getUser(db, scopeOf(request), request.params.id),
  );

  r.post(
    '/api/v2/users',
    {
      preHandler: permitPlan('User', 'Add'),
      schema: {
        tags: TAGS,
        summary: 'Create a user (User Add)',
        description:
          'With an e-mail the user gets an invitation mail with a set-password link valid 24 hours. Without one the answer carries `secretKey`, shown once: the user registers at /register with their Employee ID and this key. The usernames admin, root and sa are refused; an e-mail must be in the allowed domains when the plan lists any.',
        body: ZCreateUserRequest,
        response: { 200: ZUserWithKey },
      },
    },
    async (request) =>
      idempotentCreate(db, request, (tx) =>
        createUser(tx, mailer, scopeOf(request), request.body, baseUrl),
      ),
  );

  r.post(
    '/api/v2/users/:id',
    {
      // Editing needs User Modify; restoring an archived user (unArchive) needs User Archive.
      preHandler: permitPlan('User', editOrRestore('Archive')),
      schema: {
        tags: TAGS,
        summary:
          'Edit a user, or restore an archived one (User Modify; with unArchive User Archive)',
        description:
          'Needs a reason and the `version` the edit was made from: a stale version gets 409 VersionConflictError and changes nothing. `facilityRoles` replaces the facilities and roles: nobody changes their own, granting in a facility needs User Modify there, and a role given may allow only what the giver holds there (else 403, audited). No call sets another user’s password: start a reset with resend-invitation.',
        params: ZIdParams,
        body: ZUpdateUserRequest,
        response: { 200: ZUser },
      },
    },
    async (request) => updateUser(db, scopeOf(request), request.params.id, request.body),
  );

  r.put(
    '/api/v2/users/:id/archive',
    {
      preHandler: canArchive,
      schema: {
        tags: TAGS,
        summary: 'Archive a user (User Archive)',
        description:
          'Ends their sessions and voids their links and keys; the record is kept. `force_delete` also takes away their facilities and roles, so that restoring them gives no access until granted again.',
        params: ZIdParams,
        body: ZArchiveUserRequest,
        response: { 200: ZUser },
      },
    },
    async (request) => archiveUser(db, scopeOf(request), request.params.id, request.body),
  );

  const stateRoutes: [string, AccountAction, string][] = [
    ['lock', 'Lock', 'Lock the account until an administrator unlocks it; ends its sessions'],
    ['unlock', 'Unlock', 'Lift a lock (also one set by failed sign-in attempts)'],
    ['block', 'Block', 'Block the user; ends their sessions'],
    ['unblock', 'Unblock', 'Lift a block'],
    ['enable', 'Enable', 'Lift both a block and a lock'],
  ];
  for (const [path, action, summary] of stateRoutes) {
    r.put(
      `/api/v2/users/:id/${path}`,
      {
        preHandler: canModify,
        schema: {
          tags: TAGS,
          summary: `${summary} (User Modify)`,
          params: ZIdParams,
          body: ZReasonBody,
          response: { 200: ZUser },
        },
      },
      async (request) =>
        setAccountState(db, scopeOf(request), request.params.id, action, request.body.reason),
    );
  }

  r.post(
    '/api/v2/users/:id/resend-invitation',
    {
      preHandler: canModify,
      schema: {
        tags: TAGS,
        summary: 'Resend the invitation, or issue a fresh secret key (User Modify)',
        description:
          'Without generateKey a fresh set-password link is mailed (the user needs an e-mail). With generateKey=true a fresh secret key is answered once; an earlier key stops working. A key is issued only for an account that has not set its password yet, unless a system administrator asks (else 403).',
        params: ZIdParams,
        body: ZResendInvitationRequest,
        response: { 200: ZUserWithKey },
      },
    },
    async (request) => {
      if (request.body.id !== undefined && request.body.id !== request.params.id) {
        throw new AppError('DataValidationError', 'The id in the body is not the id in the path', {
          errors: [{ property: 'id', constraints: { equals: 'must be the id in the path' } }],
        });
      }
      return resendInvitation(
        db,
        mailer,
        scopeOf(request),
        request.params.id,
        request.body,
        baseUrl,
      );
    },
  );

  r.delete(
    '/api/v2/users/:id/secret-key',
    {
      preHandler: canModify,
      schema: {
        tags: TAGS,
        summary: "Cancel a user's unused secret key (User Modify)",
        params: ZIdParams,
        body: ZReasonBody,
        response: { 200: ZUser },
      },
    },
    async (request) =>
      cancelSecretKey(db, scopeOf(request), request.params.id, request.body.reason),
  );
}
