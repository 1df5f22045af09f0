import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ZIdParams } from '#core/schemas/common.schemas.ts';
import {
  ZApiToken,
  ZCreateServiceAccountRequest,
  ZIssuedToken,
  ZIssueTokenRequest,
  ZServiceAccount,
  ZTokenParams,
  ZUpdateServiceAccountRequest,
} from '#core/schemas/service-accounts.schemas.ts';
import { ZReasonBody } from '#core/schemas/users.schemas.ts';
import { typed, type AppContext } from '#server/http/app-context.ts';
import { actorOf, sessionOf } from '#server/http/session-guard.ts';
import {
  archiveAccount,
  createAccount,
  getAccount,
  issueToken,
  listAccounts,
  listTokens,
  revokeToken,
  updateAccount,
  type AccountScope,
} from './service-accounts.service.ts';

const TAGS = ['service accounts'];

function scopeOf(request: FastifyRequest): AccountScope {
  const session = sessionOf(request);
  return {
    actor: actorOf(request),
    planId: session.user.plan_id,
    selfId: session.user.id,
    isServiceAccount: session.serviceAccount !== undefined,
  };
}

const ZListQuery = z.object({ archived: z.enum(['true', 'false']).default('false') });

/**
 * Service accounts and their API tokens (issue 33), plan-wide like users, guarded by the User
 * rights: Get to read, Add to create and issue tokens, Modify to edit and revoke, Archive.
 */
export function registerServiceAccountRoutes({ app, db, permitPlan }: AppContext): void {
  const r = typed(app);

  r.get(
    '/api/v2/service-accounts',
    {
      preHandler: permitPlan('User', 'Get'),
      schema: {
        tags: TAGS,
        summary: 'List service accounts (User Get)',
        description: '`archived=true` lists archived accounts.',
        querystring: ZListQuery,
        response: { 200: z.array(ZServiceAccount) },
      },
    },
    async (request) => listAccounts(db, scopeOf(request), request.query.archived === 'true'),
  );

  r.get(
    '/api/v2/service-accounts/:id',
    {
      preHandler: permitPlan('User', 'Get'),
      schema: {
        tags: TAGS,
        summary: 'One service account (User Get)',
        params: ZIdParams,
        response: { 200: ZServiceAccount },
      },
    },
    async (request) => getAccount(db, scopeOf(request), request.params.id),
  );

  r.post(
    '/api/v2/service-accounts',
    {
      preHandler: permitPlan('User', 'Add'),
      schema: {
        tags: TAGS,
        summary: 'Create a service account (User Add)',
        description:
          'A named account another system calls the API with, owned by an active user of the plan, with facility roles as a user has them (granting follows the same rules as for users). It never signs in and never signs. A service account cannot create accounts (403).',
        body: ZCreateServiceAccountRequest,
        response: { 200: ZServiceAccount },
      },
    },
    async (request) => createAccount(db, scopeOf(request), request.body),
  );

  r.post(
    '/api/v2/service-accounts/:id',
    {
      preHandler: permitPlan('User', 'Modify'),
      schema: {
        tags: TAGS,
        summary: 'Edit a service account: name, owner, facility roles (User Modify)',
        description:
          'Needs a reason and the `version` the edit was made from (a stale one gets 409). `facilityRoles` replaces the facilities and roles.',
        params: ZIdParams,
        body: ZUpdateServiceAccountRequest,
        response: { 200: ZServiceAccount },
      },
    },
    async (request) => updateAccount(db, scopeOf(request), request.params.id, request.body),
  );

  r.put(
    '/api/v2/service-accounts/:id/archive',
    {
      preHandler: permitPlan('User', 'Archive'),
      schema: {
        tags: TAGS,
        summary: 'Archive a service account (User Archive)',
        description: 'Revokes all its tokens; the account and its tokens stay listed.',
        params: ZIdParams,
        body: ZReasonBody,
        response: { 200: ZServiceAccount },
      },
    },
    async (request) => archiveAccount(db, scopeOf(request), request.params.id, request.body.reason),
  );

  r.get(
    '/api/v2/service-accounts/:id/tokens',
    {
      preHandler: permitPlan('User', 'Get'),
      schema: {
        tags: TAGS,
        summary: 'The API tokens of a service account (User Get)',
        description:
          'Newest first, with expiry, last use and revocation. A token’s value is never answered again after it was issued.',
        params: ZIdParams,
        response: { 200: z.array(ZApiToken) },
      },
    },
    async (request) => listTokens(db, scopeOf(request), request.params.id),
  );

  r.post(
    '/api/v2/service-accounts/:id/tokens',
    {
      preHandler: permitPlan('User', 'Add'),
      schema: {
        tags: TAGS,
        summary: 'Issue an API token (User Add)',
        description:
          'Answers the token once, in `token`; only its hash is kept. It expires after `expiresInDays` (1 to 365). The other system sends it as `Authorization: Bearer <token>`; each call then acts as the service account, with its roles, and is audited under it and its owner.',
        params: ZIdParams,
        body: ZIssueTokenRequest,
        response: { 200: ZIssuedToken },
      },
    },
    async (request) => issueToken(db, scopeOf(request), request.params.id, request.body),
  );

  r.put(
    '/api/v2/service-accounts/:id/tokens/:tokenId/revoke',
    {
      preHandler: permitPlan('User', 'Modify'),
      schema: {
        tags: TAGS,
        summary: 'Revoke an API token (User Modify)',
        description: 'The token stops working with the next call. Needs a reason.',
        params: ZTokenParams,
        body: ZReasonBody,
        response: { 200: ZApiToken },
      },
    },
    async (request) =>
      revokeToken(
        db,
        scopeOf(request),
        request.params.id,
        request.params.tokenId,
        request.body.reason,
      ),
  );
}
